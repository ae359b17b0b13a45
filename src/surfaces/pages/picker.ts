// The record picker: a field where a person types a record number, a title or a name and chooses
// the record, so no form asks for an id. Server-rendered as a WAI-ARIA combobox (APG "Combobox
// With Listbox Popup": an input with role=combobox, aria-expanded, aria-controls and
// aria-activedescendant over a role=listbox), made live by /assets/picker.js over the public search
// operation. Without JavaScript the typed text is sent and resolved on the server (exactly one
// match), and a link opens /pick, a search page to choose from that returns to the form.
import { html } from 'hono/html';
import { AppError } from '../../kernel/errors.ts';
import type { OperationInput, OperationOutput } from '../../catalogue.ts';

type Html = ReturnType<typeof html>;

export const pickTypes = ['matter', 'person', 'meeting', 'body', 'lobbying_client'] as const;
export type PickType = (typeof pickTypes)[number];

const nouns: Record<PickType, string> = {
  matter: 'a bill',
  person: 'a person',
  meeting: 'a meeting',
  body: 'a committee',
  lobbying_client: 'a lobbying client',
};

export function pickNoun(types: readonly PickType[]): string {
  return types.length === 1 ? nouns[types[0]!] : 'a record';
}

export interface PickerOptions {
  /** The form field that carries the chosen value; the typed text goes in `<name>-text`. */
  name: string;
  types: readonly PickType[];
  label: string;
  /** Prefilled choice (from the form's last answer or from /pick's return). */
  value?: string | undefined;
  text?: string | undefined;
  required?: boolean;
  /** The page /pick returns to (a path on this site); the form's own page. */
  returnTo: string;
  /** The element id, when one page has several pickers of the same field (default `pick-<name>`). */
  id?: string;
}

/**
 * What a search result stands for in a form: a matter by its record number (what operations take),
 * anything else by its id; with several types, `type:value`.
 */
export function pickValue(r: { type: string; id: string; subtitle: string | null; path: string }, multi: boolean): string {
  const own = r.type === 'matter' ? decodeURIComponent(r.path.slice(r.path.lastIndexOf('/') + 1)) : r.id;
  return multi ? `${r.type}:${own}` : own;
}

export function pickLink(o: Pick<PickerOptions, 'name' | 'types' | 'returnTo'>, q?: string): string {
  return `/pick?${new URLSearchParams({ types: o.types.join(','), field: o.name, return: o.returnTo, ...(q ? { q } : {}) })}`;
}

export function picker(o: PickerOptions): Html {
  const id = o.id ?? `pick-${o.name}`;
  return html`<div class="picker" data-picker data-types="${o.types.join(',')}">
<label for="${id}">${o.label}</label>
<input id="${id}" name="${o.name}-text" value="${o.text ?? o.value ?? ''}" type="text" maxlength="200" autocomplete="off" spellcheck="false"
 role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="${id}-list" aria-describedby="${id}-hint"${o.required ? html` required` : ''}>
<input type="hidden" name="${o.name}" value="${o.value ?? ''}" data-pick-value>
<ul id="${id}-list" role="listbox" aria-label="${o.label}: matches" class="pick-list" hidden></ul>
<p class="muted pick-hint" id="${id}-hint">Type a record number, title or name and choose from the list. <a href="${pickLink(o)}">Search for ${pickNoun(o.types)} on a page</a></p>
<p class="visually-hidden" role="status" aria-live="polite" data-pick-status></p>
</div>`;
}

/** A picker's prefill from the query /pick returned with (`<name>` and `<name>-text`). */
export function prefill(query: unknown, name: string): { value?: string; text?: string } {
  const q = (query ?? {}) as Record<string, unknown>;
  const value = typeof q[name] === 'string' ? (q[name] as string).slice(0, 200) : undefined;
  const text = typeof q[`${name}-text`] === 'string' ? (q[`${name}-text`] as string).slice(0, 200) : undefined;
  return { ...(value ? { value } : {}), ...(text ? { text } : {}) };
}

export type Search = (input: OperationInput<'search.read'>) => Promise<OperationOutput<'search.read'>>;

/** The records of these types that match `q`, best first (one search; a mixed search is filtered). */
export async function searchPicks(search: Search, types: readonly PickType[], q: string, limit = 8) {
  const one = types.length === 1 ? types[0] : undefined;
  const page = await search({ q, limit: one ? limit : 40, ...(one ? { type: one } : {}) });
  return page.data
    .filter((r) => (types as readonly string[]).includes(r.type))
    .slice(0, limit)
    .map((r) => ({ type: r.type as PickType, value: pickValue(r, types.length > 1), label: r.title, detail: r.subtitle }));
}

/**
 * The value a picker field sent: the chosen one, or else the typed text resolved on the server
 * (no JavaScript): exactly one match, or a match whose record number or name is the text itself.
 */
export async function picked(search: Search, body: unknown, name: string, types: readonly PickType[], required = true): Promise<string | null> {
  const b = (body ?? {}) as Record<string, unknown>;
  const chosen = typeof b[name] === 'string' ? (b[name] as string).trim() : '';
  if (chosen) return chosen;
  const text = typeof b[`${name}-text`] === 'string' ? (b[`${name}-text`] as string).trim() : '';
  if (!text) {
    if (required) throw new AppError('invalid_request', `Choose ${pickNoun(types)}.`);
    return null;
  }
  const found = await searchPicks(search, types, text.slice(0, 200), 5);
  const exact = found.filter((f) => f.value.toLowerCase().endsWith(text.toLowerCase()) || f.label.toLowerCase() === text.toLowerCase());
  if (exact.length === 1) return exact[0]!.value;
  if (found.length === 1) return found[0]!.value;
  throw new AppError(
    'invalid_request',
    found.length
      ? `"${text}" matches more than one record: choose one from the list, or search for it on a page.`
      : `Nothing in the public record matches "${text}".`,
  );
}
