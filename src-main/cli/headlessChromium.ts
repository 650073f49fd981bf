// How Eddy runs Chromium without a window (eddy render, and the e2e tests' harness): WebGL
// through SwiftShader where there is no GPU, nothing fetched or synced in the background.
export const HEADLESS_CHROMIUM_ARGS = [
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
