// GLSL of the smoke raymarcher (volumeDisplay.ts). WebGL2 only: it samples a sampler3D.
// Babylon rewrites `attribute`/`varying`/gl_FragColor for GLSL ES 3.00 and adds the version line.
//
// Per pixel: intersect the view ray with the volume's box, then march front to back. Each step
// of length dt absorbs by Beer-Lambert, alpha = 1 - exp(-sigma dt) with extinction
// sigma = density * densityScale, scatters the key light once, attenuated by the smoke between
// the sample and the light (the light volume the decode computed, lightVolume.ts, rescaled from
// its extinction to this one and by the shadow strength), plus an ambient term, and, where fire
// is on, adds the emission of gas hotter than ambient along dt. Colour is accumulated
// premultiplied, so the blend is ONE, ONE_MINUS_SRC_ALPHA.

export const VOLUME_VERTEX = /* glsl */ `
precision highp float;
attribute vec3 position;
uniform mat4 world;
uniform mat4 worldViewProjection;
varying vec3 vWorld;
void main() {
  vWorld = (world * vec4(position, 1.0)).xyz;
  gl_Position = worldViewProjection * vec4(position, 1.0);
}
`

/** Upper bound of the march loop; `steps` picks how many of them a ray spans. */
export const MAX_STEPS = 512

export const VOLUME_FRAGMENT = /* glsl */ `
precision highp float;
precision highp sampler3D;
varying vec3 vWorld;
uniform vec3 cameraPosition;
uniform vec3 boxMin;
uniform vec3 boxMax;
uniform sampler3D volumeTex;
// R: the key light's transmittance toward the light at lightDensityScale.
uniform sampler3D lightTex;
uniform float lightDensityScale;
uniform float shadowStrength;
// R stores sqrt(density / densityMax); G stores (T - ambient) / tempSpan.
uniform float densityMax;
uniform float densityScale;
uniform float tempSpan;
// Kelvin above ambient at the white end of the emission ramp.
uniform float emissionSpan;
uniform float emissionStrength;
// Steps across the box diagonal.
uniform float steps;
uniform vec3 smokeColor;
uniform vec3 ambientLight;
uniform vec3 sunLight;

// Dark red through orange and yellow to white, like a blackbody from ~800 K to ~6000 K.
vec3 blackbody(float h) {
  return vec3(smoothstep(0.0, 0.4, h), smoothstep(0.15, 0.75, h) * 0.9, smoothstep(0.5, 1.0, h) * 0.8) * (0.2 + 0.8 * h);
}

void main() {
  vec3 ro = cameraPosition;
  vec3 rd = normalize(vWorld - ro);
  vec3 inv = 1.0 / rd;
  vec3 ta = (boxMin - ro) * inv;
  vec3 tb = (boxMax - ro) * inv;
  vec3 tlo = min(ta, tb);
  vec3 thi = max(ta, tb);
  float tNear = max(max(tlo.x, tlo.y), max(tlo.z, 0.0));
  float tFar = min(min(thi.x, thi.y), thi.z);
  if (tFar <= tNear) discard;

  vec3 size = boxMax - boxMin;
  float dt = length(size) / max(steps, 1.0);
  // T^k = exp(-k tau): the light volume's optical depth at this extinction and shadow strength.
  float shadowPower = shadowStrength * densityScale / lightDensityScale;
  // Per-pixel jitter of the sample positions turns step banding into fine noise. Sample i
  // sits at tNear + (i + jitter) dt and stands for [tNear + i dt, tNear + (i + 1) dt] clipped
  // to the box, so the segments add up to the path length exactly: a uniform medium gives
  // exactly exp(-sigma L).
  float jitter = fract(sin(dot(gl_FragCoord.xy, vec2(12.9898, 78.233))) * 43758.5453);
  float t0 = tNear;

  vec3 color = vec3(0.0);
  float transmittance = 1.0;
  for (int i = 0; i < ${MAX_STEPS}; i++) {
    if (t0 >= tFar || transmittance < 0.01) break;
    float t1 = min(t0 + dt, tFar);
    float seg = t1 - t0;
    vec3 p = ro + rd * mix(t0, t1, jitter);
    vec3 uvw = (p - boxMin) / size;
    vec2 s = texture(volumeTex, uvw).rg;
    float sigma = s.r * s.r * densityMax * densityScale;
    if (sigma > 0.0) {
      float lightT = max(texture(lightTex, uvw).r, 1.0 / 512.0);
      vec3 light = ambientLight + sunLight * pow(lightT, shadowPower);
      float alpha = 1.0 - exp(-sigma * seg);
      color += transmittance * alpha * smokeColor * light;
      transmittance *= 1.0 - alpha;
    }
    float heat = s.g * tempSpan;
    if (heat > 0.0) {
      float h = clamp(heat / emissionSpan, 0.0, 1.0);
      color += transmittance * blackbody(h) * emissionStrength * h * seg;
    }
    t0 = t1;
  }
  float alpha = 1.0 - transmittance;
  if (alpha < 0.002 && dot(color, vec3(1.0)) < 0.002) discard;
  gl_FragColor = vec4(color, alpha);
}
`
