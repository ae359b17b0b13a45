// The query a list page takes: the named parameters of the operation it performs, with the same
// schemas (so a bad value is the same 400 as on the API), and nothing else.
import { type TObject, Type } from 'typebox';

export function pick(input: TObject, names: readonly string[]): TObject {
  const properties = Object.fromEntries(
    names.map((n) => {
      const p = input.properties[n];
      if (!p) throw new Error(`No parameter "${n}" in the operation's input.`);
      return [n, p];
    }),
  );
  return Type.Object(properties as never, { additionalProperties: false });
}
