// The compact log line for a person at a terminal: `12:03:04 INFO  message key=value ...`,
// turned from pino's JSON line (pid, hostname and time fields left out). Only used on a terminal
// (or LOG_FORMAT=pretty): machines get the JSON lines as pino writes them.

const LEVELS: Record<number, [name: string, color: string]> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '90'],
  30: ['INFO ', '36'],
  40: ['WARN ', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '41'],
};

const OMIT = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'err']);

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

const clock = (ms: number) => {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
};

/** One pretty line (ending in a newline) for one JSON line; text that is not JSON passes as it is. */
export function prettyLine(line: string, color: boolean): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const [name, code] = LEVELS[record.level as number] ?? [String(record.level), '0'];
  const level = color ? `\x1b[${code}m${name}\x1b[0m` : name;
  const fields = Object.entries(record)
    .filter(([k]) => !OMIT.has(k))
    .map(([k, v]) => `${k}=${value(v)}`);
  const err = record.err as { message?: string; stack?: string } | undefined;
  if (err?.message) fields.unshift(`err=${value(err.message)}`);
  let out = [clock(Number(record.time ?? Date.now())), level, record.msg ?? '', ...fields].join(' ');
  if (err?.stack && (record.level as number) >= 50) out += `\n${err.stack.replace(/^/gm, '    ')}`;
  return `${out}\n`;
}
