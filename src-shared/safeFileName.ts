// File names built from names artists type (a simulation, a project): the same rule for exports,
// flipbooks and `eddy render`, so a name turns into the same file name everywhere.

/** A name safe in file names on every OS: runs of other characters become '_'. */
export function sanitizeName(name: string, fallback: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._-]+|[._-]+$/g, '').slice(0, 64)
  return s === '' ? fallback : s
}
