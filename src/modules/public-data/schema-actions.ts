// What a body (the City Council, a committee) did: the actions on matters it took, newest first.
import { type Static, Type } from 'typebox';
import { dateFrom, dateTo, ListQuery, NullableDate, NullableString, Timestamp } from './schema-common.ts';
import { MatterRef } from './schema-legislation.ts';

export const BodyAction = Type.Object({
  id: Type.String(),
  date: NullableDate('Date of the action.'),
  name: Type.String({ description: 'Referred, Recommended to Pass, Passed, …' }),
  text: NullableString(),
  result: NullableString(),
  meetingId: NullableString(),
  matter: MatterRef,
  updatedAt: Timestamp('When the matter the action belongs to last changed here.'),
});

export const BodyActionsQuery = ListQuery({
  id: Type.String({ minLength: 1, maxLength: 200, description: 'Body id.' }),
  from: dateFrom('actions'),
  to: dateTo('actions'),
});

export type BodyActionOut = Static<typeof BodyAction>;
export type BodyActionsInput = Static<typeof BodyActionsQuery>;
