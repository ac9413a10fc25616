import { ERROR_CODES, type ErrorCode } from '@trawl/contract';

/** Renders an (area) OpenAPI document as Markdown: operations, their bodies and responses, then schemas. */

type Json = Record<string, any>;

function refName(ref: string): string {
  return ref.split('/').pop() ?? ref;
}

function typeLabel(s: Json | undefined): string {
  if (!s) return 'any';
  if (s.$ref) return `[${refName(s.$ref)}](#${refName(s.$ref).toLowerCase()})`;
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  // A long list (the 1,133 trends categories) is named by its size: the JSON document holds every value.
  if (Array.isArray(s.enum) && s.enum.length > 20) return `one of ${s.enum.length} listed values (see the JSON document)`;
  if (Array.isArray(s.enum)) return s.enum.map((v: unknown) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[k])) return s[k].map((x: Json) => typeLabel(x)).join(' or ');
  }
  if (s.type === 'array') return `array of ${typeLabel(s.items)}`;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') {
    return `map of ${typeLabel(s.additionalProperties)}`;
  }
  const base = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
  const bounds: string[] = [];
  if (s.minimum !== undefined) bounds.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) bounds.push(`≤ ${s.maximum}`);
  if (s.minItems !== undefined) bounds.push(`${s.minItems}–${s.maxItems ?? '∞'} items`);
  if (s.format) bounds.push(s.format);
  return bounds.length ? `${base} (${bounds.join(', ')})` : base;
}

function esc(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function fieldRows(s: Json, prefix: string, rows: string[], depth: number): void {
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set<string>(s.required ?? []);
  for (const [name, p] of Object.entries(props)) {
    const path = prefix ? `${prefix}.${name}` : name;
    rows.push(`| \`${path}\` | ${esc(typeLabel(p))} | ${required.has(name) ? 'yes' : 'no'} | ${esc(p.description ?? '')} |`);
    if (p.type === 'object' && p.properties && depth < 3) fieldRows(p, path, rows, depth + 1);
    if (p.type === 'array' && p.items?.type === 'object' && depth < 3) fieldRows(p.items, `${path}[]`, rows, depth + 1);
  }
}

function fieldTable(s: Json): string[] {
  const rows = ['| Field | Type | Required | Notes |', '|---|---|---|---|'];
  fieldRows(s, '', rows, 0);
  return rows;
}

function errorCodesFor(status: number): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => ERROR_CODES[c].status === status);
}

export function openApiToMarkdown(doc: Json): string {
  const out: string[] = [`# ${doc.info.title}`, '', doc.info.description ?? '', ''];
  out.push('All routes need `Authorization: Bearer <API key>`. Errors use the object below with the listed codes.', '');
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      out.push(`## ${method.toUpperCase()} ${path}`, '');
      if (op.operationId) out.push(`Operation \`${op.operationId}\`. ${op.summary ?? ''}`, '');
      if (op.description) out.push(op.description, '');
      const params = (op.parameters ?? []) as Json[];
      if (params.length) {
        out.push('| Parameter | In | Type | Required | Notes |', '|---|---|---|---|---|');
        for (const p of params) {
          out.push(`| \`${p.name}\` | ${p.in} | ${esc(typeLabel(p.schema))} | ${p.required ? 'yes' : 'no'} | ${esc(p.description ?? '')} |`);
        }
        out.push('');
      }
      const body = op.requestBody?.content?.['application/json']?.schema as Json | undefined;
      if (body) out.push(`Request body (application/json): ${typeLabel(body)}`, '');
      out.push('| Status | Body | Codes |', '|---|---|---|');
      for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        const schema = Object.entries((r.content ?? {}) as Record<string, Json>)
          .map(([type, c]) => `${type}: ${typeLabel(c.schema)}`)
          .join('; ');
        const codes = Number(status) >= 400 ? errorCodesFor(Number(status)).map((c) => `\`${c}\``).join(', ') : '';
        out.push(`| ${status} | ${esc(schema)} | ${codes} |`);
      }
      out.push('');
    }
  }
  out.push('## Error codes', '', '| Code | HTTP | Type | Retryable by default |', '|---|---|---|---|');
  for (const [code, e] of Object.entries(ERROR_CODES)) out.push(`| \`${code}\` | ${e.status} | ${e.type} | ${e.retryable} |`);
  out.push('');
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Json>;
  if (Object.keys(schemas).length) out.push('## Schemas', '');
  for (const [name, s] of Object.entries(schemas)) {
    out.push(`### ${name}`, '');
    if (s.description) out.push(s.description, '');
    if (s.properties) out.push(...fieldTable(s), '');
    else out.push(`Type: ${typeLabel(s)}`, '');
  }
  return out.join('\n');
}
