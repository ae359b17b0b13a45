// Bodies (the council and its committees) and public people (alderpersons, officials, lobbyists).
import { type Static, Type } from 'typebox';
import { ListQuery, Nullable, NullableDate, NullableString, Provenance, qParam, sortParam } from './schema-common.ts';

export const bodyKinds = ['council', 'committee', 'joint_committee', 'other'] as const;

export const Body = Type.Object({
  id: Type.String(),
  name: Type.String(),
  abbreviation: NullableString(),
  kind: Type.Enum([...bodyKinds]),
  active: Type.Boolean(),
  ...Provenance,
});

export const BodyMember = Type.Object({
  personId: Type.String(),
  name: Type.String(),
  ward: Nullable(Type.Integer()),
  role: Type.String({ description: 'Chair, Vice Chair, Member, …' }),
  startDate: NullableDate('First day of the membership.'),
  endDate: NullableDate('Last day of the membership; null while it lasts.'),
});

export const BodyDetail = Type.Object({ ...Body.properties, members: Type.Array(BodyMember) });

export const BodiesQuery = ListQuery({
  kind: Type.Optional(Type.Enum([...bodyKinds], { description: 'Only bodies of this kind.' })),
  active: Type.Optional(Type.Boolean({ description: 'Only active (true) or inactive (false) bodies.' })),
  q: qParam('body names'),
  sort: sortParam(['name', '-name'], 'Order: name (default).'),
});

/**
 * Every kind of person the service knows, in one list. Alderpersons, officials and lobbyists act in
 * public capacities; City staff, residents and organization representatives are reachable only
 * through the team `people.*` operations (residents and representatives with people.private.read).
 */
export const personKinds = ['alderperson', 'official', 'staff', 'lobbyist', 'resident', 'organization_rep'] as const;
export type PersonKind = (typeof personKinds)[number];
/** People the public API shows; residents and organization representatives never appear here. */
export const publicPersonKinds = ['alderperson', 'official', 'lobbyist'] as const satisfies readonly PersonKind[];
/** Who may speak in a meeting's testimony (alderpersons do not testify). */
export const speakerKinds = ['resident', 'organization_rep', 'official', 'staff', 'lobbyist'] as const satisfies readonly PersonKind[];
export type SpeakerKind = (typeof speakerKinds)[number];

export const Person = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sortName: Type.String({ description: '"Last, First".' }),
  kind: Type.Enum([...publicPersonKinds]),
  ward: Nullable(Type.Integer({ minimum: 1, maximum: 50, description: 'Ward of an alderperson.' })),
  current: Type.Boolean({ description: 'Holds office (or is registered) now.' }),
  organization: NullableString('Employer of a lobbyist.'),
  email: NullableString(),
  phone: NullableString(),
  website: NullableString(),
  photoUrl: NullableString(),
  ...Provenance,
});

export const Term = Type.Object({
  office: Type.String({ description: 'Alderperson, Mayor, City Clerk, …' }),
  ward: Nullable(Type.Integer()),
  startDate: NullableDate('First day in office.'),
  endDate: NullableDate('Last day in office; null while serving.'),
});

export const Membership = Type.Object({
  bodyId: Type.String(),
  bodyName: Type.String(),
  role: Type.String(),
  startDate: NullableDate('First day of the membership.'),
  endDate: NullableDate('Last day of the membership.'),
});

export const PersonDetail = Type.Object({ ...Person.properties, terms: Type.Array(Term), memberships: Type.Array(Membership) });

export const PeopleQuery = ListQuery({
  kind: Type.Optional(Type.Enum([...publicPersonKinds], { description: 'Only people of this kind.' })),
  ward: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Only the alderperson(s) of this ward.' })),
  current: Type.Optional(Type.Boolean({ description: 'Only people in office now (true) or not (false).' })),
  body: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only members of this body (body id).' })),
  q: qParam('names, organizations and wards'),
  sort: sortParam(['name', '-name', 'ward', '-ward'], 'Order: name (default) or ward.'),
});

export type BodyOut = Static<typeof Body>;
export type BodyDetailOut = Static<typeof BodyDetail>;
export type PersonOut = Static<typeof Person>;
export type PersonDetailOut = Static<typeof PersonDetail>;
export type BodiesInput = Static<typeof BodiesQuery>;
export type PeopleInput = Static<typeof PeopleQuery>;
