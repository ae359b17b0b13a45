// Which ward a point is in, and who represents it: point-in-polygon over the bundled 2023
// boundaries (wards.ts), then the ward's current alderperson from the people the record holds.
import type { Page } from './cursor.ts';
import type { PeopleInput, PersonOut } from './schema-people.ts';
import type { WardLocationOut, WardsInput } from './schema-wards.ts';
import { wardAt } from './wards.ts';

export const WARD_MAP_NAME = 'Chicago wards from May 2023 (City of Chicago data portal, Boundaries - Wards (2023-))';

export function createWardsService(people: { list(q: PeopleInput): Promise<Page<PersonOut>> }) {
  return {
    wards: {
      async locate(q: WardsInput): Promise<WardLocationOut> {
        const ward = wardAt(q.lat, q.lon);
        const found = ward === null ? null : (await people.list({ kind: 'alderperson', ward, current: true, limit: 1 })).data[0];
        return { lat: q.lat, lon: q.lon, ward, alderperson: found ?? null, boundaries: WARD_MAP_NAME };
      },
    },
  };
}
