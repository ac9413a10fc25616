import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LuaScript, readLuaSource } from '../src/script.ts';

/** Script files in a temporary directory: `--- @include` lines are inlined when a script is read. */
const dir = mkdtempSync(join(tmpdir(), 'trawl-lua-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function write(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe('Lua includes', () => {
  write('includes/status.lua', '--- @include "strings"\nlocal function live(s) return s == "running" end\n');
  write('includes/strings.lua', 'local function quote(s) return "\'" .. s .. "\'" end\n');

  it('inlines an include, and its own, in place of the line, each file once', () => {
    const path = write('check-1.lua', '-- KEYS[1] meta\n--- @include "includes/status"\n--- @include "includes/strings.lua"\nreturn live(ARGV[1])\n');
    expect(readLuaSource(path)).toBe(
      [
        '-- KEYS[1] meta',
        'local function quote(s) return "\'" .. s .. "\'" end',
        'local function live(s) return s == "running" end',
        '',
        'return live(ARGV[1])',
        '',
      ].join('\n'),
    );
    expect(new LuaScript(path).numberOfKeys).toBe(1);
  });

  it('names the script and the include that is missing', () => {
    const path = write('broken-1.lua', '--- @include "includes/nowhere"\nreturn 1\n');
    expect(() => new LuaScript(path)).toThrow(/^broken-1\.lua: included "includes\/nowhere" not found \(.*includes\/nowhere\.lua\)$/);
  });

  it('leaves a script without includes as it is', () => {
    const text = '-- --- @include "not at the start of a line"\nreturn 1\n';
    expect(readLuaSource(write('plain-0.lua', text))).toBe(text);
  });
});
