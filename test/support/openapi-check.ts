import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

/**
 * Checks values against an OpenAPI 3.1 document as a tool that trusts it would: its schemas are JSON Schema 2020-12
 * (Ajv, formats included), references resolved inside the document. Used by the tests that hold the public
 * document to the server: real answers, examples, and the constraints the server enforces.
 */
type Json = Record<string, any>;

const DOC_ID = 'https://trawl.invalid/openapi.json';
/** Headers every HTTP answer may carry that no API documents. */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

const pointer = (parts: (string | number)[]) => parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Media type without parameters, lower case: `text/html; charset=utf-8` → `text/html`. */
const essence = (type: string) => type.split(';')[0].trim().toLowerCase();
const normalized = (type: string) => type.toLowerCase().replace(/\s+/g, '');

export interface AnswerToCheck {
  method: string;
  /** The path template of the document (`/v1/runs/{run_id}`). */
  path: string;
  status: number;
  headers: Headers;
  body: Buffer;
}

export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: Json) {
    // ajv-formats is CommonJS: its plugin is the module itself or its `default`, depending on the loader.
    const plugin = ((formats as unknown as { default?: unknown }).default ?? formats) as (ajv: Ajv2020) => void;
    plugin(this.ajv);
    this.ajv.addSchema({ ...doc, $id: DOC_ID });
  }

  /** The problems of `value` against the schema at `parts` of the document (a JSON pointer's segments); [] if none. */
  problems(parts: (string | number)[], value: unknown): string[] {
    const ref = `${DOC_ID}#/${pointer(parts)}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.getSchema(ref);
      if (!validate) return [`no schema at ${parts.join(' ')}`];
      this.compiled.set(ref, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message} ${e.params ? JSON.stringify(e.params) : ''}`.trim());
  }

  operation(method: string, path: string): Json | undefined {
    return this.doc.paths?.[path]?.[method.toLowerCase()];
  }

  /** Everything about a real answer the document gets wrong: status, content type, body, headers. */
  answerProblems(a: AnswerToCheck): string[] {
    const where = `${a.method} ${a.path} ${a.status}`;
    const op = this.operation(a.method, a.path);
    if (!op) return [`${where}: no such operation`];
    const response = op.responses?.[String(a.status)];
    if (!response) return [`${where}: status not documented`];
    const out: string[] = [];
    const sent = a.headers.get('content-type') ?? '';
    const types = Object.keys(response.content ?? {});
    // A documented type with parameters (text/markdown; charset=utf-8) must be sent exactly; without, by its essence.
    const type = types.find((t) => (t.includes(';') ? normalized(t) === normalized(sent) : essence(t) === essence(sent)));
    if (types.length > 0 && !type) out.push(`${where}: content type ${sent} not among ${types.join(', ')}`);
    if (type) {
      const base = ['paths', a.path, a.method.toLowerCase(), 'responses', String(a.status), 'content', type, 'schema'];
      const schema = response.content[type].schema ?? {};
      let value: unknown;
      if (essence(type).endsWith('json')) value = JSON.parse(a.body.toString('utf8'));
      else if (schema.contentMediaType) value = undefined; // raw bytes (a PNG): their type is all a schema says
      else value = a.body.toString('utf8');
      if (value !== undefined) out.push(...this.problems(base, value).map((p) => `${where} body: ${p}`));
    }
    const documented = new Map<string, Json>(Object.entries((response.headers ?? {}) as Record<string, Json>).map(([k, v]) => [k.toLowerCase(), { ...v, name: k }]));
    for (const [name, value] of a.headers) {
      if (TRANSPORT_HEADERS.has(name)) continue;
      const doc = documented.get(name);
      if (!doc) {
        out.push(`${where}: header ${name} not documented`);
        continue;
      }
      const parsed = doc.schema?.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      const headerPath = ['paths', a.path, a.method.toLowerCase(), 'responses', String(a.status), 'headers', doc.name, 'schema'];
      out.push(...this.problems(headerPath, parsed).map((p) => `${where} header ${name}: ${p}`));
    }
    for (const [name, doc] of documented) if (doc.required && !a.headers.has(name)) out.push(`${where}: required header ${doc.name} missing`);
    return out;
  }
}

/** Reads a fetch() answer whole, for `answerProblems`. */
export async function answerOf(method: string, path: string, res: Response): Promise<AnswerToCheck> {
  return { method, path, status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}
