/**
 * `npm run cleanup -- --base-url … --token … [--second-token …]`: after a run that was
 * killed before it could clean up, walks each account and deletes the widgets that carry any
 * run marker of this suite (`wcs-` and 12 letters). Nothing else is touched.
 */
import { WidgetApi } from '../api.ts';
import { ConfigError, resolveConfig } from '../config.ts';
import { HttpClient } from '../http/client.ts';
import { ANY_MARKER } from '../harness/marker.ts';
import { redactProcessOutput } from './redact-output.ts';
import { Redactor } from '../http/redact.ts';
import { sweep } from '../sweep.ts';
import { walkBudget } from '../walk.ts';

async function main(): Promise<number> {
  let config;
  try {
    config = resolveConfig(process.argv.slice(2), process.env);
    if (!config.help && (!config.baseUrl || !config.token)) throw new ConfigError('cleanup needs --base-url and --token (the embedded reference server keeps nothing between runs)');
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`widget-cleanup: ${error.message}\n`);
    return 2;
  }
  if (config.help) {
    process.stdout.write('Usage: npm run cleanup -- --base-url URL --token T [--second-token T2]\nDeletes the widgets that carry a wcs- run marker of this suite, and nothing else.\n');
    return 0;
  }
  const secrets = [config.token!, ...(config.secondToken ? [config.secondToken] : [])];
  redactProcessOutput(new Redactor(secrets));
  const client = new HttpClient({ ...config, baseUrl: config.baseUrl!, secrets });
  let code = 0;
  try {
    const accounts = [new WidgetApi(client, config.token!, 'primary'), ...(config.secondToken ? [new WidgetApi(client, config.secondToken, 'second')] : [])];
    for (const api of accounts) {
      const result = await sweep(api, ANY_MARKER, walkBudget(config.maxWidgets));
      process.stdout.write(`${api.account} account: deleted ${result.deleted.length} widget(s) carrying a run marker\n`);
      for (const problem of result.problems) process.stdout.write(`  problem: ${problem}\n`);
      if (result.problems.length > 0) code = 3;
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
