/**
 * `widget-conformance cleanup --base-url … --token … [--second-token …]` (`widget-cleanup`,
 * `npm run cleanup -- …` in the repository): after a run that was
 * killed before it could clean up, walks each account and deletes the widgets that carry any
 * run marker of this suite as a whole word (`wcs-` and 14 letters and digits with a checksum,
 * see harness/marker.ts), each proven by the list entry that shows it. Nothing else is touched.
 */
import { WidgetApi } from '../client/api.ts';
import { ConfigError, resolveConfig, secretsOf } from '../config.ts';
import { userDirectory } from '../paths.ts';
import { resolve } from 'node:path';
import { readCaFile } from './ca-file.ts';
import { withCommandTokens } from './token-commands.ts';
import { HttpClient } from '../http/client.ts';
import { carriesAnyMarker } from '../harness/marker.ts';
import { Ownership } from '../client/ownership.ts';
import { checkNpmKeptOptions } from './npm-options.ts';
import { redactProcessOutput } from './redact-output.ts';
import { Redactor } from '../http/redact.ts';
import { leftovers, sweep } from '../client/sweep.ts';
import { walkBudget } from '../client/walk.ts';

async function main(): Promise<number> {
  let config;
  let ca: string | undefined;
  try {
    checkNpmKeptOptions(process.env);
    config = resolveConfig(process.argv.slice(2), process.env);
    if (!config.help) config = await withCommandTokens(config);
    if (!config.help && (!config.baseUrl || !config.token)) throw new ConfigError('cleanup needs --base-url and --token (the embedded reference server keeps nothing between runs)');
    if (config.caFile !== undefined) ca = readCaFile(resolve(userDirectory(process.env), config.caFile), config.caFile);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`widget-cleanup: ${error.message}\n`);
    return 2;
  }
  if (config.help) {
    process.stdout.write('Usage: widget-conformance cleanup --base-url URL --token T [--second-token T2]   (or widget-cleanup …; in a checkout of the suite: npm run cleanup -- …)\nDeletes the widgets that carry a wcs- run marker of this suite, and nothing else.\n');
    return 0;
  }
  const secrets = secretsOf(config);
  redactProcessOutput(new Redactor(secrets));
  const client = new HttpClient({ ...config, ...(ca === undefined ? {} : { ca }), baseUrl: config.baseUrl!, secrets, maxRateLimitWaitTotalMs: config.maxRateLimitWaitMs, deadline: Date.now() + config.maxRunTimeMs });
  let code = 0;
  try {
    const ownership = new Ownership(carriesAnyMarker);
    const peers = new Map<string, WidgetApi>();
    const accounts = [
      new WidgetApi(client, config.token!, 'primary', ownership, {}, peers),
      ...(config.secondToken ? [new WidgetApi(client, config.secondToken, 'second', ownership, {}, peers)] : []),
    ];
    for (const api of accounts) {
      const result = await sweep(api, walkBudget(config.maxWidgets));
      process.stdout.write(`${api.account} account: deleted ${result.deleted.length} widget(s) carrying a run marker\n`);
      for (const problem of result.problems) process.stdout.write(`  problem: ${problem}\n`);
      if (result.problems.length > 0) code = 3;
    }
    for (const l of leftovers(ownership)) {
      process.stdout.write(`  not deleted: ${l.account} account, id ${JSON.stringify(l.id)}: ${l.reason}\n`);
      code = 3;
    }
  } finally {
    await client.close();
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`widget-cleanup: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(3);
  },
);
