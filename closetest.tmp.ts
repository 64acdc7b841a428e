import { loadConfig } from '/work/wt-deploy/src/config.ts';
import { startServer } from '/work/wt-deploy/src/server.ts';
import { signedFileUrl } from '/work/wt-deploy/src/media/signed-urls.ts';
const F = process.argv[2];
const s = await startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: 'sqlite:' + F + '/db.sqlite', MEDIA_STORAGE: 'fs:' + F + '/media', MAIL_DIR: F + '/mail' }));
const rows = await s.ctx.db.kysely.selectFrom('media_resources').select(['storage_key', 'size']).execute();
for (const row of rows) {
  await (await fetch(s.address + '/app/profiles/1/', { headers: { authorization: 'Token x' } })).text();
  const url = new URL(signedFileUrl(s.ctx.config.publicUrl, s.ctx.secrets.mediaUrl, row.storage_key, Date.now() + 3600_000));
  const r = await fetch(s.address + url.pathname + url.search);
  const body = Buffer.from(await r.arrayBuffer());
  if (body.length !== row.size) console.log('size', body.length, row.size);
}
console.log(rows.length);
const t0 = Date.now();
await s.close(); console.log('close took', Date.now() - t0);
