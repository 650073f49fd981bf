// The npm package 'bunny' (the Stanford bunny as plain arrays) ships without type
// declarations; this is the shape its CommonJS exports really have.
declare module 'bunny' {
  const bunny: { positions: [number, number, number][]; cells: [number, number, number][] }
  export default bunny
}
