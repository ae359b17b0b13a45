// "Which ward is this point in": the query (a WGS 84 latitude and longitude) and the answer.
import { type Static, Type } from 'typebox';
import { Nullable } from '../../kernel/schema.ts';
import { Person } from './schema-people.ts';

export const WardsQuery = Type.Object(
  {
    lat: Type.Number({ minimum: -90, maximum: 90, description: 'Latitude in decimal degrees (WGS 84), e.g. 41.8837.' }),
    lon: Type.Number({ minimum: -180, maximum: 180, description: 'Longitude in decimal degrees (WGS 84), e.g. -87.6319.' }),
  },
  { additionalProperties: false },
);

export const WardLocation = Type.Object({
  lat: Type.Number(),
  lon: Type.Number(),
  ward: Nullable(
    Type.Integer({ minimum: 1, maximum: 50, description: 'The ward containing the point; null outside every ward (outside Chicago, or in the lake).' }),
  ),
  alderperson: Nullable(Person),
  boundaries: Type.String({ description: 'The ward map the point was placed on.' }),
});

export type WardsInput = Static<typeof WardsQuery>;
export type WardLocationOut = Static<typeof WardLocation>;
