// Variables in scenario strings (`${token}`) and the seeded random source of choices and picks.

/**
 * Every string in `value` with `${name}` replaced; an unknown name is an error naming it. A string
 * that is only `${name}` becomes the variable's value as it was saved (a number stays a number).
 */
export function substitute<T>(value: T, vars: Map<string, unknown>, extra: Record<string, string> = {}): T {
  if (typeof value === 'string') {
    const whole = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
    if (whole && extra[whole[1]] === undefined && vars.has(whole[1])) return vars.get(whole[1]) as T;
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const v = extra[name] ?? vars.get(name);
      if (v === undefined) throw new Error(`unknown variable \${${name}}`);
      return typeof v === 'string' ? v : JSON.stringify(v);
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars, extra)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars, extra)])) as T;
  return value;
}

/** mulberry32: small, fast, and the same sequence for the same seed on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
