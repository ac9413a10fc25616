import type { AdminProcedureReference } from '@trawl/admin';

/**
 * The admin API reference (/docs/admin): one HTML page generated from the admin router's procedures and their zod
 * inputs (`adminReference`), so it lists exactly what the server runs. Plain HTML and CSS, no script, everything
 * escaped. The admin API is never part of the public OpenAPI document.
 */
type Schema = Record<string, any>;

const BASE = 'http://127.0.0.1:8080';

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `code` spans for Markdown-style backticks in the procedures' own descriptions (escaped first). */
function prose(text: string): string {
  return esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function typeOf(s: Schema): string {
  if (Array.isArray(s.anyOf)) return s.anyOf.map(typeOf).join(' or ');
  if (Array.isArray(s.enum)) return s.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') return `array of ${s.items ? typeOf(s.items) : 'any'}`;
  return String(s.type ?? 'any');
}

function constraints(s: Schema): string {
  const out: string[] = [];
  for (const alt of Array.isArray(s.anyOf) ? s.anyOf : [s]) {
    if (alt.minimum !== undefined || alt.maximum !== undefined) out.push(`${alt.minimum ?? '…'} to ${alt.maximum ?? '…'}`);
    if (alt.minLength !== undefined || alt.maxLength !== undefined) out.push(`${alt.minLength ?? 0} to ${alt.maxLength ?? '…'} characters`);
    if (alt.minItems !== undefined) out.push(`at least ${alt.minItems} item${alt.minItems === 1 ? '' : 's'}`);
    if (alt.pattern) out.push(`matches ${alt.pattern}`);
  }
  if (s.description) out.push(s.description);
  return out.join('; ');
}

/** Every alternative object of an input (teams.get takes `{team_id}` or `{name}`). */
function shapes(input: Schema | null): Schema[] {
  if (!input) return [];
  return Array.isArray(input.anyOf) ? input.anyOf : [input];
}

function fieldTable(shape: Schema): string {
  const props = Object.entries((shape.properties ?? {}) as Record<string, Schema>);
  if (props.length === 0) return '<p>No input.</p>';
  const required = new Set<string>(shape.required ?? []);
  const rows = props.map(
    ([name, s]) =>
      `<tr><td><code>${esc(name)}</code></td><td>${esc(typeOf(s))}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${
        s.default === undefined ? '' : `<code>${esc(JSON.stringify(s.default))}</code>`
      }</td><td>${esc(constraints(s))}</td></tr>`,
  );
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Default</th><th>Rule</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A plausible value for an example call. */
function sample(name: string, s: Schema): unknown {
  if (Array.isArray(s.anyOf)) return sample(name, s.anyOf[0]);
  if (Array.isArray(s.enum)) return s.enum[0];
  if (name.endsWith('_id')) return `${name === 'key_id' ? 'key' : name.slice(0, -3)}_…`;
  if (s.type === 'integer' || s.type === 'number') return s.default ?? s.minimum ?? 0;
  if (s.type === 'boolean') return s.default ?? true;
  if (s.type === 'array') return [sample(name, s.items ?? {})];
  return name === 'name' ? 'acme' : name === 'label' ? 'ci' : '…';
}

function exampleCall(p: AdminProcedureReference): string {
  const shape = shapes(p.input)[0];
  const input: Record<string, unknown> = {};
  for (const name of (shape?.required ?? []) as string[]) input[name] = sample(name, shape.properties[name]);
  const json = JSON.stringify(input);
  const auth = '-H "Authorization: Bearer $TRAWL_ADMIN_TOKEN"';
  const curl =
    p.kind === 'query'
      ? `curl -sS ${auth} -G ${BASE}/admin/${p.path}${shape ? ` \\\n  --data-urlencode 'input=${json}'` : ''}`
      : `curl -sS ${auth} -H 'content-type: application/json' \\\n  ${BASE}/admin/${p.path} -d '${json}'`;
  const cli = `npx trawl admin ${p.path}${Object.entries(input)
    .map(([k, v]) => ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('')}`;
  return `<pre><code>${esc(curl)}\n${esc(cli)}</code></pre>`;
}

function procedure(p: AdminProcedureReference): string {
  const inputs = shapes(p.input);
  const table =
    inputs.length > 1
      ? inputs.map((s, i) => `<p>${i === 0 ? 'Either' : 'or'}:</p>${fieldTable(s)}`).join('')
      : inputs.length === 1
        ? fieldTable(inputs[0])
        : '<p>No input.</p>';
  const how = p.kind === 'query' ? `GET /admin/${p.path}?input=&lt;JSON&gt;` : `POST /admin/${p.path}`;
  return `<section id="${esc(p.path)}"><h3><code>${esc(p.path)}</code> <small>${p.kind} · ${how}</small></h3>
<p>${prose(p.description)}</p><p><strong>Answers</strong> ${prose(p.returns)}</p>${table}${exampleCall(p)}</section>`;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem 1.5rem;color:#1b2733}
code,pre{font:13px/1.4 ui-monospace,monospace}pre{background:#f3f5f7;padding:.6rem .8rem;overflow-x:auto;border-radius:4px}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d5dde3;padding:.25rem .5rem;text-align:left;vertical-align:top}
h3 code{font-size:1.1em}h3 small{font-weight:normal;color:#5b6b78;margin-left:.5rem}section{border-top:1px solid #e3e8ec;margin-top:1.5rem}nav a{margin-right:.6rem}`;

export function adminPage(procedures: AdminProcedureReference[]): string {
  const areas = [...new Set(procedures.map((p) => p.path.split('.')[0]))];
  const toc = areas
    .map((a) => `<li><strong>${esc(a)}</strong>: ${procedures.filter((p) => p.path.startsWith(`${a}.`)).map((p) => `<a href="#${esc(p.path)}">${esc(p.path.slice(a.length + 1))}</a>`).join(', ')}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Trawl admin API</title><style>${STYLE}</style></head>
<body><nav><a href="/docs">Public API reference</a><a href="/api-docs/public-v1/openapi">OpenAPI document</a></nav>
<h1>Trawl admin API</h1>
<p>The operator's API: teams, keys, credits, rate limits, quotas, and crawls, trends jobs, workers, the frontier and retention across every team. It is served at <code>/admin</code> only when the gateway runs with <code>TRAWL_ADMIN_TOKEN</code> set (otherwise <code>/admin</code> answers 404), and every call needs <code>Authorization: Bearer &lt;TRAWL_ADMIN_TOKEN&gt;</code>; an API key is never accepted. It is not part of the public OpenAPI document.</p>
<h2>Calling it</h2>
<p>tRPC over HTTP: a <em>query</em> is <code>GET /admin/&lt;procedure&gt;?input=&lt;URL-encoded JSON&gt;</code>, a <em>mutation</em> is <code>POST /admin/&lt;procedure&gt;</code> with the input as a JSON body. An answer is <code>{"result":{"data":…}}</code>. The same procedures are <code>npx trawl admin &lt;procedure&gt; field=value…</code> on the command line and <code>createAdminClient</code> of <code>@trawl/admin</code> in TypeScript. Examples below use a gateway on ${esc(BASE)}.</p>
<p>Errors keep tRPC's shape, <code>{"error":{"message","code","data":{"code","httpStatus","path"}}}</code>, and never carry a stack trace or a server path: <code>UNAUTHORIZED</code> (401: no or wrong token), <code>BAD_REQUEST</code> (400: the input breaks its rule, or a cursor this listing did not give), <code>NOT_FOUND</code> (404), <code>CONFLICT</code> (409: the record's state does not allow it, the message names the state), <code>INTERNAL_SERVER_ERROR</code> (500: "internal error; retry later").</p>
<h2>Procedures</h2><ul>${toc}</ul>
${procedures.map(procedure).join('\n')}
</body></html>`;
}

/** The page has no script and loads nothing: its CSP says so. */
export const ADMIN_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";
