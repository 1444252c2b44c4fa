// CLI: runs the reference server until SIGINT or SIGTERM, for `npm run serve -- --port 8080`.
import { parseArgs } from 'node:util';
import { startReferenceServer, type ListenOptions } from './server.ts';
import { ConfigError } from '../errors.ts';

const USAGE = 'usage: npm run serve -- [--port N] [--host ADDRESS]';
const DEFAULTS = { host: '127.0.0.1', port: 8080 };

/** A command-line mistake: reported in one line, exit code 2. */

function parseOptions(argv: string[]): Required<Omit<ListenOptions, 'tls'>> & { help: boolean } {
  let values: { port?: string; host?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  const { port = String(DEFAULTS.port), host = DEFAULTS.host, help = false } = values;
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65535) {
    throw new ConfigError(`--port must be an integer from 0 to 65535, got "${port}"`);
  }
  if (host === '') throw new ConfigError('--host must not be empty');
  return { host, port: Number(port), help };
}

async function main(argv: string[]): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`serve: ${error.message} (${USAGE})`);
    return 2;
  }
  if (options.help) {
    console.log(`${USAGE}\nDefaults: --host ${DEFAULTS.host} --port ${DEFAULTS.port}; --port 0 picks a free port.`);
    return 0;
  }

  let server: Awaited<ReturnType<typeof startReferenceServer>>;
  try {
    server = await startReferenceServer({}, options);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    console.error(`serve: cannot listen on ${options.host}:${options.port} (${reason})`);
    return 1;
  }

  // These are the reference server's fixed, public test tokens, not secrets.
  const [token, secondToken] = server.tokens;
  const { tokens } = server.service;
  console.log(`Widget reference server listening on ${server.baseUrl}`);
  console.log(`token (${tokens[token]}): ${token}`);
  console.log(`second token (${tokens[secondToken]}): ${secondToken}`);
  console.log('Run the suite against it:');
  // Tokens travel in the environment, never as flags: a flag is visible to every process on
  // the machine and lands in shell history (the README's rule, kept by the suite's own hint).
  console.log(`  WIDGET_TOKEN=${token} WIDGET_SECOND_TOKEN=${secondToken} npm test -- --base-url ${server.baseUrl}`);
  console.log('Press Ctrl+C to stop.');

  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  console.log('Widget reference server stopped.');
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
