import { startTestGateway } from '@trawl/test-support/gateway.ts';
const gw = await startTestGateway();
const r = await fetch(`${gw.url}/api-docs/public-v1/openapi`);
console.log(r.status, (await r.text()).slice(0, 500));
console.log(JSON.stringify(gw.logs.filter((l) => (l.level as number) >= 40).slice(0, 3)).slice(0, 2000));
await gw.close();
