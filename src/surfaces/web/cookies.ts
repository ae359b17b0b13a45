// Reading and writing the website's cookies (RFC 6265). Small on purpose: the site sets only its
// own opaque, URL-safe values, so no encoding beyond what is here is needed.

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    return value;
  }
  return null;
}

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Path=/, and Secure
 * whenever the site is served over https.
 */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, 'Path=/', `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAgeSeconds <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
