export interface ScenarioResult {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes: string[];
}

function cell(v: string | number): string {
  if (typeof v === 'string') return v;
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/** A Markdown table with the conditions the figures were taken under. */
export function formatTable(r: ScenarioResult, env: { load: number; node: string; at: string }): string {
  const lines = [
    `## ${r.title}`,
    '',
    `${env.at}, Node ${env.node}, load average at start ${env.load.toFixed(2)}`,
    '',
    `| ${r.columns.join(' | ')} |`,
    `|${r.columns.map(() => '---').join('|')}|`,
    ...r.rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
    ...r.notes.map((n) => `- ${n}`),
  ];
  return lines.join('\n');
}
