// Campaign money of aldermanic committees (Illinois State Board of Elections data).
import { type Static, Type } from 'typebox';
import { DateString, dateFrom, dateTo, ListQuery, Money, Nullable, NullableString, Provenance, sortParam } from './schema-common.ts';

const byOwner = {
  committee: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Committee id (committee-<ISBE id>).' })),
  person: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Alderperson's person id." })),
  ward: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Ward of the committee.' })),
};

export const Committee = Type.Object({
  id: Type.String(),
  name: Type.String(),
  isbeId: NullableString('Illinois State Board of Elections committee id.'),
  personId: NullableString(),
  personName: NullableString(),
  ward: Nullable(Type.Integer()),
  ...Provenance,
});

const Sum = Type.Object({ count: Type.Integer(), amount: Money('Sum, in dollars.') });

export const CommitteeDetail = Type.Object({
  ...Committee.properties,
  receipts: Type.Object({ ...Sum.properties, firstDate: Nullable(Type.String({ format: 'date' })), lastDate: Nullable(Type.String({ format: 'date' })) }),
  expenditures: Type.Object({ ...Sum.properties, firstDate: Nullable(Type.String({ format: 'date' })), lastDate: Nullable(Type.String({ format: 'date' })) }),
});

export const CommitteesQuery = ListQuery({
  person: byOwner.person,
  ward: byOwner.ward,
  sort: sortParam(['name', '-name', 'ward', '-ward'], 'Order: name (default) or ward.'),
});

export const Receipt = Type.Object({
  id: Type.String(),
  committeeId: Type.String(),
  date: Type.String({ format: 'date' }),
  amount: Money('Amount in dollars.'),
  contributor: Type.String(),
  contributorType: NullableString('Individual, Business, …'),
  occupation: NullableString(),
  employer: NullableString(),
  city: NullableString(),
  state: NullableString(),
  zip: NullableString(),
  ...Provenance,
});

export const ReceiptsQuery = ListQuery({
  ...byOwner,
  from: dateFrom('receipts'),
  to: dateTo('receipts'),
  sort: sortParam(['date', '-date', 'amount', '-amount'], 'Order: -date (default) or amount.'),
});

export const Expenditure = Type.Object({
  id: Type.String(),
  committeeId: Type.String(),
  date: Type.String({ format: 'date' }),
  amount: Money('Amount in dollars.'),
  payee: Type.String(),
  purpose: NullableString(),
  city: NullableString(),
  state: NullableString(),
  zip: NullableString(),
  ...Provenance,
});

export const ExpendituresQuery = ListQuery({
  ...byOwner,
  from: dateFrom('expenditures'),
  to: dateTo('expenditures'),
  sort: sortParam(['date', '-date', 'amount', '-amount'], 'Order: -date (default) or amount.'),
});

export const TotalsQuery = Type.Object(
  {
    ...byOwner,
    period: Type.Enum(['month', 'quarter', 'year'], { default: 'year', description: 'Bucket size (default year).' }),
    from: dateFrom('money'),
    to: dateTo('money'),
  },
  { additionalProperties: false },
);

export const Totals = Type.Object({
  period: Type.Enum(['month', 'quarter', 'year']),
  data: Type.Array(
    Type.Object({
      period: Type.String({ description: '2019, 2019-Q2 or 2019-05.' }),
      start: DateString('First day of the period.'),
      receipts: Sum,
      expenditures: Sum,
    }),
  ),
});

export type CommitteeOut = Static<typeof Committee>;
export type CommitteeDetailOut = Static<typeof CommitteeDetail>;
export type CommitteesInput = Static<typeof CommitteesQuery>;
export type ReceiptOut = Static<typeof Receipt>;
export type ReceiptsInput = Static<typeof ReceiptsQuery>;
export type ExpenditureOut = Static<typeof Expenditure>;
export type ExpendituresInput = Static<typeof ExpendituresQuery>;
export type TotalsInput = Static<typeof TotalsQuery>;
export type TotalsOut = Static<typeof Totals>;
