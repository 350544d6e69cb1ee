// The Prometheus text exposition format 0.0.4, written by hand: a family is `# HELP`, `# TYPE`
// and its samples; label values escape backslash, double quote and newline; values are Go-style
// floats (`+Inf`, `NaN`). https://prometheus.io/docs/instrumenting/exposition_formats/
export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Record<string, string>;

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

function labelText(labels: Labels): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

/** Lines of an exposition; each family once, its samples right after its HELP and TYPE. */
export class Exposition {
  readonly #lines: string[] = [];

  family(name: string, type: 'counter' | 'gauge' | 'histogram', help: string): this {
    this.#lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`);
    return this;
  }

  sample(name: string, labels: Labels, value: number): this {
    this.#lines.push(`${name}${labelText(labels)} ${formatValue(value)}`);
    return this;
  }

  text(): string {
    return this.#lines.join('\n') + '\n';
  }
}
