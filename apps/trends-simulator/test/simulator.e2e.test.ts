import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTrendsSimulator, type TrendsSimulator } from '../src/simulator.ts';

const FIXTURES = new URL('../recordings/', import.meta.url);
const recording = (name: string) => readFileSync(new URL(name, FIXTURES));
const recordedJson = (name: string) => {
  const t = recording(name).toString('utf8');
  return JSON.parse(t.slice(t.indexOf('\n') + 1));
};
const REQ = JSON.stringify({ comparisonItem: [{ keyword: 'pizza', time: '2021-01-01 2021-12-31', geo: '' }], category: 0, property: '' });
const widget = (file: string, id: string) => recordedJson(file).widgets.find((w: { id: string }) => w.id === id);

let sim: TrendsSimulator;
let cookie: string;
beforeAll(async () => {
  sim = await startTrendsSimulator();
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(async () => {
  sim.reset();
  const res = await fetch(`${sim.url}/trends/explore/?geo=US`);
  cookie = /^(NID=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1];
});

const explore = (req = REQ, headers: Record<string, string> = { cookie }) =>
  // Never follow: the /sorry redirect points at google.com and tests stay off the internet.
  fetch(`${sim.url}/trends/api/explore?${new URLSearchParams({ hl: 'en-US', tz: '360', req })}`, { method: 'POST', headers, redirect: 'manual' });
const related = (req: unknown, token: string, headers: Record<string, string> = { cookie }) =>
  fetch(`${sim.url}/trends/api/widgetdata/relatedsearches?${new URLSearchParams({ req: JSON.stringify(req), token, tz: '360' })}`, { headers });
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('trends simulator: the recorded protocol', () => {
  it('answers the cookie step like Google: 404 with an NID cookie', async () => {
    const res = await fetch(`${sim.url}/trends/explore/?geo=US`);
    expect(res.status).toBe(404);
    expect(res.headers.get('set-cookie')).toMatch(/^NID=511=[A-Za-z0-9_-]+; expires=.+; path=\/; domain=\.google\.com; HttpOnly$/);
  });

  it('serves explore byte for byte, with its prefix and a JSON content type', async () => {
    const res = await explore();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await bytes(res)).equals(recording('explore_pizza_single_2021.raw'))).toBe(true);
    const two = JSON.stringify({ comparisonItem: [{ keyword: 'pizza', time: '2021-01-01 2021-12-31', geo: '' }, { keyword: 'bagel', time: '2021-01-01 2021-12-31', geo: '' }], category: 0, property: '' });
    expect((await bytes(await explore(two))).equals(recording('explore_pizza_bagel_2021.raw'))).toBe(true);
  });

  it('serves relatedsearches byte for byte for the widget’s own request and token', async () => {
    const single = widget('explore_pizza_single_2021.raw', 'RELATED_QUERIES');
    const res = await related(single.request, single.token);
    expect(res.status).toBe(200);
    expect((await bytes(res)).equals(recording('relatedsearches_pizza_2021.raw'))).toBe(true);
    const bagel = widget('explore_pizza_bagel_2021.raw', 'RELATED_QUERIES_1');
    expect((await bytes(await related(bagel.request, bagel.token))).equals(recording('relatedsearches_bagel_2021.raw'))).toBe(true);
  });

  it('answers 401 to a wrong token or to a token sent with another widget’s request', async () => {
    const single = widget('explore_pizza_single_2021.raw', 'RELATED_QUERIES');
    const bagel = widget('explore_pizza_bagel_2021.raw', 'RELATED_QUERIES_1');
    expect((await related(single.request, `${single.token}x`)).status).toBe(401);
    expect((await related(bagel.request, single.token)).status).toBe(401);
  });

  it('answers 429 without the NID cookie it issued', async () => {
    expect((await explore(REQ, {})).status).toBe(429);
    expect((await explore(REQ, { cookie: 'NID=511=forged' })).status).toBe(429);
  });

  it('answers 400 to what Google refuses: over 100 characters, over 5 keywords, hourly ranges over 7 days', async () => {
    const item = (keyword: string, time = '2021-01-01 2021-12-31') => ({ keyword, time, geo: '' });
    const req = (items: unknown[]) => JSON.stringify({ comparisonItem: items, category: 0, property: '' });
    expect((await explore(req([item('k'.repeat(101))]))).status).toBe(400);
    expect((await explore(req(Array.from({ length: 6 }, (_, i) => item(`k${i}`))))).status).toBe(400);
    expect((await explore(req([item('pizza', '2023-03-01T00 2023-03-08T01')]))).status).toBe(400);
    expect((await explore(req([item('pizza', '2023-03-01T00 2023-03-08T00')]))).status).toBe(200);
    expect((await explore('{not json')).status).toBe(400);
  });
});

describe('trends simulator: scripted faults', () => {
  it('answers 429 with and without Retry-After for the next N calls, then normally', async () => {
    sim.inject('explore', { kind: 'status', status: 429, retryAfter: '7' });
    sim.inject('explore', { kind: 'status', status: 429 });
    const a = await explore();
    expect([a.status, a.headers.get('retry-after')]).toEqual([429, '7']);
    const b = await explore();
    expect([b.status, b.headers.get('retry-after')]).toEqual([429, null]);
    expect((await explore()).status).toBe(200);
    expect(sim.calls('explore').map((c) => c.status)).toEqual([429, 429, 200]);
  });

  it('redirects to google.com/sorry, answers 5xx, slowly, or with either empty shape', async () => {
    sim.inject('explore', { kind: 'sorry' });
    const sorry = await explore(REQ, { cookie });
    expect(sorry.status).toBe(302);
    expect(sorry.headers.get('location')).toMatch(/^https:\/\/www\.google\.com\/sorry\/index\?continue=/);
    sim.inject('explore', { kind: 'status', status: 503 });
    expect((await explore()).status).toBe(503);
    sim.inject('explore', { kind: 'slow', delayMs: 300 });
    const began = Date.now();
    expect((await explore()).status).toBe(200);
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);
    const w = widget('explore_pizza_single_2021.raw', 'RELATED_QUERIES');
    sim.inject('relatedsearches', { kind: 'empty', shape: 'lists' });
    sim.inject('relatedsearches', { kind: 'empty', shape: 'none' });
    expect(await (await related(w.request, w.token)).text()).toBe(`)]}',\n{"default":{"rankedList":[{"rankedKeyword":[]},{"rankedKeyword":[]}]}}`);
    expect(await (await related(w.request, w.token)).text()).toBe(`)]}',\n{"default":{"rankedList":[]}}`);
  });

  it('takes faults and reports calls over its admin endpoint', async () => {
    const post = (body: unknown) =>
      fetch(`${sim.url}/__simulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ endpoint: 'explore', fault: { kind: 'sorry' }, times: 'always' })).status).toBe(204);
    expect((await post({ endpoint: 'nowhere', fault: { kind: 'sorry' } })).status).toBe(400);
    expect((await post({ endpoint: 'explore', fault: { kind: 'empty', shape: 'none' } })).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await explore()).status).toBe(302);
    const { calls } = (await (await fetch(`${sim.url}/__simulator/calls`)).json()) as { calls: { endpoint: string; at: number; status: number }[] };
    expect(calls.map((c) => [c.endpoint, c.status])).toEqual([['cookie', 404], ['explore', 302], ['explore', 302], ['explore', 302]]);
    expect(calls.every((c) => typeof c.at === 'number')).toBe(true);
    expect((await fetch(`${sim.url}/__simulator/reset`, { method: 'POST' })).status).toBe(204);
    expect(sim.calls()).toEqual([]);
  });
});
