/**
 * Redaction: no token ever reaches output. Every string the suite prints or writes passes
 * through a Redactor built from the configured secrets.
 */

export const REDACTED = '[REDACTED]';

/** Replaces every occurrence of any configured secret with [REDACTED]. */
export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: Iterable<string>) {
    // Each secret also as it appears inside a URL (percent- and form-encoded), and longest
    // first, so a secret that contains another is replaced whole.
    const spellings = [...secrets].filter((s) => s.length > 0).flatMap((s) => [s, encodeURIComponent(s), new URLSearchParams({ s }).toString().slice(2)]);
    this.secrets = [...new Set(spellings)].sort((a, b) => b.length - a.length);
  }

  /** The length of the longest spelling of a secret (0 without secrets). */
  get longest(): number {
    return this.secrets[0]?.length ?? 0;
  }

  /** The text with every secret replaced. */
  text(value: string): string {
    let out = value;
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    return out;
  }

  /**
   * An Authorization header value with its credentials hidden: the scheme stays visible,
   * because which scheme was sent is what an auth failure message needs to show.
   */
  authorization(value: string): string {
    const m = /^(\S+)(\s+)(.*)$/s.exec(value);
    if (!m) return this.text(value);
    const credentials = m[3] ?? '';
    return credentials === '' ? `${m[1]}${m[2]}` : `${m[1]} ${REDACTED}`;
  }

  /** Headers with Authorization hidden and every secret replaced in the rest. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      out[name] = name.toLowerCase() === 'authorization' ? this.authorization(value) : this.text(value);
    }
    return out;
  }
}
