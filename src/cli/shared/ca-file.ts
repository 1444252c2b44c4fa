/**
 * --ca-file: a private CA's certificates, read once by the runner and handed to every HTTP
 * client (the workers get the text in their settings), so a bad file is one line before any
 * request rather than a TLS failure in every test.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../errors.ts';

/** The PEM text of the file, or a ConfigError naming what is wrong with it. */
export function readCaFile(path: string, shown: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'unreadable');
    throw new ConfigError(`--ca-file ${shown} cannot be read: ${why}`);
  }
  // undici would accept garbage here and fail every request with a TLS error: say it once, now.
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`--ca-file ${shown} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return text;
}
