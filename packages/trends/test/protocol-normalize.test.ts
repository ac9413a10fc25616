import { describe, expect, it } from 'vitest';
import { TrendsResult } from '@trawl/contract';
import { normalizeRelatedQueries, parseJsonBody, pickRelatedQueriesWidget, UpstreamError } from '../src/index.ts';
import { recordedJson, recording } from './fixtures.ts';

describe('recorded answers', () => {
  it('carry the prefixes the protocol notes describe', () => {
    expect(recording('explore_pizza_single_2021.raw').subarray(0, 5).toString()).toBe(")]}'\n");
    expect(recording('relatedsearches_pizza_2021.raw').subarray(0, 6).toString()).toBe(")]}',\n");
  });
});

describe('parseJsonBody', () => {
  it('strips both prefixes up to the first newline', () => {
    expect(parseJsonBody('explore', recording('explore_pizza_single_2021.raw'))).toEqual(recordedJson('explore_pizza_single_2021.raw'));
    expect(parseJsonBody('relatedsearches', recording('relatedsearches_pizza_2021.raw'))).toEqual(recordedJson('relatedsearches_pizza_2021.raw'));
    expect(parseJsonBody('explore', Buffer.from('{"a":1}'))).toEqual({ a: 1 });
  });

  it('reports an unreadable body as a protocol failure that never carries the body', () => {
    const err = (() => {
      try {
        parseJsonBody('explore', Buffer.from(")]}'\n<html>secret-token-123</html>"));
      } catch (e) {
        return e as UpstreamError;
      }
    })();
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err?.failure).toBe('protocol');
    expect(err?.retryable).toBe(false);
    expect(err?.message).not.toContain('secret');
  });
});

describe('pickRelatedQueriesWidget', () => {
  it('picks RELATED_QUERIES by id with its request and token', () => {
    const explore = recordedJson('explore_pizza_single_2021.raw');
    const w = pickRelatedQueriesWidget(explore);
    expect(w.token).toBe('APP6_UEAAAAAZCFPMqgVjlzsaH_gPv3HAtoYFfRN-jpy');
    expect(w.request).toEqual(explore.widgets.find((x: { id: string }) => x.id === 'RELATED_QUERIES').request);
  });

  it('picks RELATED_QUERIES_<n> of a several-keyword answer by position, never by title', () => {
    const explore = recordedJson('explore_pizza_bagel_2021.raw');
    expect(pickRelatedQueriesWidget(explore, 1).token).toBe('APP6_UEAAAAAZCFPNzzLAp28xzvTwB5i73F9REwu0WFA');
    const retitled = { widgets: explore.widgets.map((w: { title: string }) => ({ ...w, title: 'Búsquedas relacionadas' })) };
    expect(pickRelatedQueriesWidget(retitled, 0).token).toBe('APP6_UEAAAAAZCFPN7nxQXGsecj6cc1EJkU_E61w4HQL');
  });

  it('fails with a protocol error when there is no such widget', () => {
    expect(() => pickRelatedQueriesWidget({ widgets: [{ id: 'TIMESERIES', token: 'x', request: {} }] })).toThrow(UpstreamError);
    expect(() => pickRelatedQueriesWidget({})).toThrow(UpstreamError);
  });
});

describe('normalizeRelatedQueries', () => {
  it('normalizes every recorded top and rising item', () => {
    for (const name of ['relatedsearches_pizza_2021.raw', 'relatedsearches_bagel_2021.raw']) {
      const raw = recordedJson(name).default.rankedList;
      const result = TrendsResult.parse(normalizeRelatedQueries(recordedJson(name)));
      const expected = (items: any[]) =>
        items.map((i) => ({
          query: i.query,
          value: i.value,
          formatted_value: i.formattedValue,
          breakout: i.formattedValue === 'Breakout',
          link: `https://trends.google.com${i.link}`,
        }));
      expect(result.top).toEqual(expected(raw[0].rankedKeyword));
      expect(result.rising).toEqual(expected(raw[1].rankedKeyword));
    }
  });

  it('keeps Google’s formatting and marks only Breakout as a breakout', () => {
    const { top, rising } = normalizeRelatedQueries(recordedJson('relatedsearches_pizza_2021.raw'));
    expect(top[0]).toEqual({
      query: 'pizza hut',
      value: 100,
      formatted_value: '100',
      breakout: false,
      link: 'https://trends.google.com/trends/explore?q=pizza+hut&date=2021-01-01+2021-12-31',
    });
    expect(rising[0]).toMatchObject({ query: 'licorice pizza', value: 8550, formatted_value: 'Breakout', breakout: true });
    expect(rising[1]).toMatchObject({ formatted_value: '+400%', value: 400, breakout: false });
    expect(rising.filter((r) => r.breakout)).toHaveLength(1);
  });

  it('reads both empty shapes as no related queries', () => {
    expect(normalizeRelatedQueries({ default: { rankedList: [{ rankedKeyword: [] }, { rankedKeyword: [] }] } })).toEqual({ top: [], rising: [] });
    expect(normalizeRelatedQueries({ default: { rankedList: [] } })).toEqual({ top: [], rising: [] });
  });

  it('pins links to trends.google.com whatever the data says', () => {
    const r = normalizeRelatedQueries({
      default: { rankedList: [{ rankedKeyword: [{ query: 'a b', value: 3.6, formattedValue: '4', link: 'https://evil.example/trends/explore?q=x' }, { query: 'c&d', value: 1 }] }] },
    });
    expect(r.top[0]).toMatchObject({ value: 4, link: 'https://trends.google.com/trends/explore?q=x' });
    expect(r.top[1]).toMatchObject({ formatted_value: '1', link: 'https://trends.google.com/trends/explore?q=c%26d' });
  });

  it('fails with a protocol error on unreadable items or a missing list', () => {
    expect(() => normalizeRelatedQueries({ default: { rankedList: [{ rankedKeyword: [{ value: 1 }] }] } })).toThrow(UpstreamError);
    expect(() => normalizeRelatedQueries({ default: {} })).toThrow(UpstreamError);
  });
});
