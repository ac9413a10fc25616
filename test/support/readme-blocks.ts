import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The shell blocks of a Markdown file (```sh, ```bash, ```shell), and running them as a reader would: in order, in
 * one shell, so what one block exports or starts the next one has. A block that cannot run in a test is marked by
 * an HTML comment on the line before it, with the reason: `<!-- readme-test: skip: starts a second gateway -->`.
 */
export interface ShellBlock {
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** Why the block is not run, or null when it is. */
  skip: string | null;
}

const FENCE = /^```(sh|bash|shell)\s*$/;
const MARK = /^<!--\s*readme-test:\s*skip(?::\s*(.*?))?\s*-->$/;

export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const mark = MARK.exec(lines[i].trim());
    if (mark && !FENCE.test(lines[i + 1] ?? '')) throw new Error(`line ${i + 1}: a readme-test mark must be right before a shell block`);
    if (mark && !mark[1]) throw new Error(`line ${i + 1}: a readme-test skip mark must say why`);
    if (!FENCE.test(lines[i])) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`line ${i + 1}: unclosed code block`);
    const before = MARK.exec((lines[i - 1] ?? '').trim());
    blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n'), skip: before ? before[1] : null });
    i = end;
  }
  return blocks;
}

export interface BlockResult {
  line: number;
  result: 'ok' | 'failed' | 'skipped' | 'not reached';
}

export interface BlocksRun {
  results: BlockResult[];
  /** Everything the blocks wrote, stdout and stderr, with a `::block <line>` line before each block. */
  output: string;
}

/** Whether this machine can give the blocks a network namespace of their own (loopback only). */
export function namespaceCommand(): string[] {
  // Root needs no user namespace; anyone else maps themselves to root inside one.
  return process.getuid?.() === 0 ? ['unshare', '--net', '--pid', '--fork'] : ['unshare', '--map-root-user', '--net', '--pid', '--fork'];
}

/**
 * Runs the blocks not marked skip, in order, in one bash, each under `set -e -o pipefail`: the first that fails
 * stops the run. Inside a network and PID namespace of their own: only a loopback interface (so fixed ports such as
 * 8080 are free, and nothing reaches the internet), and every process they started in the background ends with
 * the run.
 */
export async function runShellBlocks(
  blocks: ShellBlock[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<BlocksRun> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-readme-'));
  const status = join(dir, 'status');
  const script = ['ip link set lo up', `exec 3>${JSON.stringify(status)}`, 'set -o pipefail'];
  blocks.forEach((b, i) => {
    if (b.skip !== null) return;
    const file = join(dir, `block-${i}.sh`);
    writeFileSync(file, `${b.code}\n`);
    script.push(`echo "::block ${b.line}"`, `echo "start ${b.line}" >&3`, `set -e; source ${JSON.stringify(file)}; set +e`, `echo "ok ${b.line}" >&3`);
  });
  writeFileSync(join(dir, 'run.sh'), `${script.join('\n')}\n`);
  try {
    const [cmd, ...args] = namespaceCommand();
    const output = await new Promise<string>((resolve) => {
      const child = spawn(cmd, [...args, 'bash', join(dir, 'run.sh')], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const chunks: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => chunks.push(c));
      child.stderr.on('data', (c: Buffer) => chunks.push(c));
      // The whole process group: the namespace's first process with it, and so every process in the namespace.
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), opts.timeoutMs);
      child.on('close', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
    const marks = readFileSync(status, 'utf8').split('\n');
    const results = blocks.map((b): BlockResult => {
      if (b.skip !== null) return { line: b.line, result: 'skipped' };
      if (marks.includes(`ok ${b.line}`)) return { line: b.line, result: 'ok' };
      return { line: b.line, result: marks.includes(`start ${b.line}`) ? 'failed' : 'not reached' };
    });
    return { results, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
