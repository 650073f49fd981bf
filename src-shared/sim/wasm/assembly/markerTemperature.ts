// Markers whose temperature is not t0, per block (reference: src-shared/sim/liquid/
// markerTemperatureKernel.ts markersOffTemperatureSlab; the block size is speedKernel.ts's
// SPEED_BLOCK). NaN temperatures count as different, as !== does.

const SPEED_BLOCK: i32 = 16384

/** markersOffTemperatureSlab over blocks [b0, b1). */
export function markersOffTemperature(temp: usize, t0: f64, count: i32, partial: usize, b0: i32, b1: i32): void {
  for (let b = b0; b < b1; b++) {
    const end = min(count, (b + 1) * SPEED_BLOCK)
    let n: i32 = 0
    for (let q = b * SPEED_BLOCK; q < end; q++) n += <f64>load<f32>(temp + (<usize>q << 2)) != t0 ? 1 : 0
    store<f64>(partial + (<usize>b << 3), <f64>n)
  }
}
