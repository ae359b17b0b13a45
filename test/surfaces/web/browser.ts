// A tiny browser over app.inject: keeps cookies between requests and submits forms the way a
// browser does (urlencoded, repeated fields for checkboxes). No JavaScript, like the pages.
import type { FastifyInstance } from 'fastify';

export interface Page {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
  setCookies: string[];
  location: string | undefined;
}

export type Form = Record<string, string | string[]>;

export function encodeForm(form: Form): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
  return params.toString();
}

/** The value of a hidden `_csrf` field on a page. */
export function csrfOf(body: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(body);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1]!;
}

export class Browser {
  readonly jar = new Map<string, string>();
  readonly app: FastifyInstance;
  /** The address the browser connects from (app.inject's default is 127.0.0.1). */
  readonly remoteAddress: string | undefined;
  constructor(app: FastifyInstance, options: { remoteAddress?: string } = {}) {
    this.app = app;
    this.remoteAddress = options.remoteAddress;
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: 'GET' | 'POST', url: string, form?: Form, headers: Record<string, string> = {}): Promise<Page> {
    const res = await this.app.inject({
      method,
      url,
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      headers: {
        ...(this.jar.size ? { cookie: this.cookieHeader() } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      ...(form ? { payload: encodeForm(form) } : {}),
    });
    const raw = res.headers['set-cookie'];
    const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
    for (const c of setCookies) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0\b/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return { status: res.statusCode, body: res.body, headers: res.headers, setCookies, location: res.headers.location as string | undefined };
  }

  get(url: string, headers?: Record<string, string>): Promise<Page> {
    return this.request('GET', url, undefined, headers);
  }

  post(url: string, form: Form, headers?: Record<string, string>): Promise<Page> {
    return this.request('POST', url, form, headers);
  }

  /** GETs `pageUrl`, then submits its form with the page's CSRF token plus `form`. */
  async submit(pageUrl: string, action: string, form: Form): Promise<Page> {
    const page = await this.get(pageUrl);
    return this.post(action, { _csrf: csrfOf(page.body), ...form });
  }
}

/** The sign-in link in a mail's text. */
export function linkIn(text: string): string {
  const m = /https?:\/\/\S+\/signin\/verify\?code=\S+/.exec(text);
  if (!m) throw new Error(`no sign-in link in:\n${text}`);
  return m[0];
}

/** Path and query of an absolute URL, for app.inject. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** Signs `email` in through the real flow, reading the link from the outbox (no SMTP_URL). */
export async function signInViaOutbox(app: FastifyInstance, outbox: () => { to: string; text: string }[], email: string): Promise<Browser> {
  const b = new Browser(app);
  const sent = await b.submit('/signin', '/signin', { email });
  if (sent.status !== 200) throw new Error(`sign-in request failed: ${sent.status}`);
  const mail = outbox().find((m) => m.to === email);
  if (!mail) throw new Error(`no mail to ${email}`);
  const confirm = await b.get(pathOf(linkIn(mail.text)));
  const code = /name="code" value="([^"]+)"/.exec(confirm.body)![1]!;
  const done = await b.post('/signin/verify', { _csrf: csrfOf(confirm.body), code });
  if (done.status !== 303) throw new Error(`sign-in failed: ${done.status} ${done.body}`);
  return b;
}
