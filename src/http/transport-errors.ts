/**
 * A transport failure in words: what undici or Node threw, turned into the reason a
 * TransportError gives (a timeout, a refused connection, DNS, a reset, TLS), with a hint where
 * the usual cause is known. Unknown errors keep their code and message, redacted: the message
 * of an error may quote the URL or a header.
 */
import { CONNECTION_LOST_CODES, NoResponse } from './transport.ts';

export interface FailureContext {
  /** The request's timeout was shortened to the run's deadline: a timeout then means the run's time ran out. */
  readonly byDeadline: boolean;
  /** --timeout, as a timeout's reason names it. */
  readonly timeoutMs: number;
  /** The body cap, as an over-cap reason names it. */
  readonly maxResponseBytes: number;
  /** The run's redaction, for the text of an error nobody classified. */
  readonly redact: (text: string) => string;
}

/** The reason a TransportError gives for `thrown` (a NoResponse's note included). */
export function describeTransportError(thrown: unknown, context: FailureContext): string {
  const note = thrown instanceof NoResponse && thrown.note ? ` (${thrown.note})` : '';
  const error = thrown instanceof NoResponse ? thrown.error : thrown;
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (e.name === 'TimeoutError' && context.byDeadline) return "no complete response before the run's time budget ran out";
  if (e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `no complete response within --timeout ${context.timeoutMs} ms`;
  }
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return `response body larger than ${context.maxResponseBytes} bytes`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found (DNS)';
  if (code !== undefined && CONNECTION_LOST_CODES.has(code)) return `connection reset or closed before a complete response${note}`;
  // Node names certificate failures by OpenSSL's verify codes (UNABLE_TO_VERIFY_LEAF_SIGNATURE, SELF_SIGNED_CERT_IN_CHAIN, …).
  if (code !== undefined && /^ERR_(TLS|SSL)|CERT|SIGNATURE|^EPROTO$/.test(code)) return tlsFailure(code, `${e.message ?? ''} ${e.cause?.message ?? ''}`);
  return context.redact(`${code ?? e.name ?? 'error'}: ${e.message ?? String(error)}`);
}

/** A TLS failure with its code, and a hint for the two causes users meet most: a private CA, and a plain-HTTP server. */
function tlsFailure(code: string, messages: string): string {
  const untrusted = /CERT|SIGNATURE|ISSUER/.test(code) && !/ALTNAME|EXPIRED|NOT_YET_VALID|REVOKED/.test(code);
  // OpenSSL's "wrong version number": the bytes that came back were not TLS at all, which is
  // what an https:// URL aimed at a plain-HTTP server looks like.
  const plain = /WRONG_VERSION_NUMBER/i.test(code) || /wrong version number/i.test(messages);
  const hint = untrusted
    ? ': a certificate from a private CA is trusted with --ca-file or NODE_EXTRA_CA_CERTS'
    : plain ? ': the server did not answer in TLS; does it speak plain HTTP (an http:// base URL)?' : '';
  return `TLS failure (${code})${hint}`;
}
