// The 2023 ward boundaries (sample/geo/wards-2023.geojson, provenance in its SOURCES.md): read once
// from the bundled file when first needed and kept in memory. They are fixed until the next
// redistricting, so nothing about them lives in the database. Two uses: "which ward is this point
// in" (point-in-polygon over the exact shapes) and the ward map the website draws from them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';

/** A GeoJSON position: [longitude, latitude] (RFC 7946 §3.1.1). */
type Position = number[];
interface WardFeature {
  properties: { ward?: string | number } | null;
  geometry: { type: 'Polygon'; coordinates: Position[][] } | { type: 'MultiPolygon'; coordinates: Position[][][] };
}

export const WARD_BOUNDARIES_FILE = fileURLToPath(new URL('../../../sample/geo/wards-2023.geojson', import.meta.url));

export interface WardBoundary {
  ward: number;
  /** MultiPolygon coordinates: polygons → rings (outer first, then holes) → [longitude, latitude]. */
  polygons: Position[][][];
  /** [west, south, east, north]: most points are ruled out without walking a ring. */
  bbox: [number, number, number, number];
}

function boundingBox(polygons: Position[][][]): WardBoundary['bbox'] {
  const box: WardBoundary['bbox'] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of polygons) {
    for (const [lon, lat] of polygon[0] ?? []) {
      box[0] = Math.min(box[0], lon!);
      box[1] = Math.min(box[1], lat!);
      box[2] = Math.max(box[2], lon!);
      box[3] = Math.max(box[3], lat!);
    }
  }
  return box;
}

/** Parses a GeoJSON FeatureCollection of wards (`ward` property 1–50). A malformed file fails loudly. */
export function parseWardBoundaries(text: string): WardBoundary[] {
  const collection = JSON.parse(text) as { features: WardFeature[] };
  const wards = collection.features.map((feature) => {
    const ward = Number(feature.properties?.ward);
    if (!Number.isInteger(ward) || ward < 1 || ward > 50)
      throw new Error(`Ward boundaries: a feature has no ward number 1–50 (${String(feature.properties?.ward)}).`);
    const g = feature.geometry;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    return { ward, polygons, bbox: boundingBox(polygons) };
  });
  wards.sort((a, b) => a.ward - b.ward);
  if (wards.length !== 50 || wards.some((w, i) => w.ward !== i + 1)) throw new Error('Ward boundaries: expected wards 1 to 50, each once.');
  return wards;
}

let kept: WardBoundary[] | null = null;

/** The 50 wards in order, read from the bundled file on first use. */
export function wardBoundaries(): readonly WardBoundary[] {
  kept ??= parseWardBoundaries(readFileSync(WARD_BOUNDARIES_FILE, 'utf8'));
  return kept;
}

/**
 * The ward containing a point, or null outside every ward (outside the city, or in the lake).
 * A point exactly on a shared boundary belongs to the lower-numbered ward: the shapes tile the
 * city, and one answer is better than two.
 */
export function wardAt(lat: number, lon: number): number | null {
  for (const w of wardBoundaries()) {
    const [west, south, east, north] = w.bbox;
    if (lon < west || lon > east || lat < south || lat > north) continue;
    // GeoJSON positions are [longitude, latitude] (RFC 7946 §3.1.1).
    if (booleanPointInPolygon([lon, lat], { type: 'MultiPolygon', coordinates: w.polygons })) return w.ward;
  }
  return null;
}
