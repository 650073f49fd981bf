// Minimal, strict option parsing for the `eddy` command line: every option is known, every
// value is checked, and mistakes are one clear sentence.
export class UsageError extends Error {}

export interface OptionSpec {
  /** 'flag': no value, true when given; 'number': any finite number. */
  type: 'int' | 'number' | 'string' | 'flag'
  choices?: readonly string[]
  min?: number
  max?: number
}

type OptionValue<T> = T extends 'int' | 'number' ? number : T extends 'flag' ? boolean : string

export function parseOptions<S extends Record<string, OptionSpec>>(argv: string[], spec: S): { [K in keyof S]?: OptionValue<S[K]['type']> } {
  const out: Record<string, number | string | boolean> = {}
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    if (!flag.startsWith('--')) throw new UsageError(`Unexpected argument "${flag}"`)
    const name = flag.slice(2)
    const s = spec[name]
    if (!s) throw new UsageError(`Unknown option ${flag} (known: ${Object.keys(spec).map((k) => `--${k}`).join(', ')})`)
    if (s.type === 'flag') {
      out[name] = true
      continue
    }
    const value = argv[++i]
    if (value === undefined) throw new UsageError(`${flag} needs a value`)
    if (s.type === 'int' || s.type === 'number') {
      const n = Number(value)
      if (s.type === 'int' && !Number.isInteger(n)) throw new UsageError(`${flag} must be a whole number (got "${value}")`)
      if (!Number.isFinite(n) || value.trim() === '') throw new UsageError(`${flag} must be a number (got "${value}")`)
      if ((s.min !== undefined && n < s.min) || (s.max !== undefined && n > s.max)) throw new UsageError(`${flag} must be between ${s.min} and ${s.max} (got ${n})`)
      out[name] = n
    } else {
      if (s.choices && !s.choices.includes(value)) throw new UsageError(`${flag} must be one of ${s.choices.join(', ')} (got "${value}")`)
      out[name] = value
    }
  }
  return out as { [K in keyof S]?: OptionValue<S[K]['type']> }
}
