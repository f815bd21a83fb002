import client from 'prom-client';
import { attachOnce, counter } from '../http/unattached-metrics.js';

/**
 * Tries of the game-hosted calls (4.8-4.10) by app, kind and outcome (GAME_CALL_OUTCOMES): a game whose role query
 * or pre-order check fails blocks its players' orders, so operators alert on the failure rate per app
 * (docs/operations.md#alerts). The labelled series are made once each: prom-client hashes a label object on every inc.
 */
export class GameCallMetrics {
  readonly calls = counter(
    'game_calls_total',
    'Tries of the game-hosted calls (role query, role list, pre-order check) by app, kind and outcome',
    ['app_id', 'kind', 'outcome'],
  );
  readonly #series = new Map<string, client.Counter.Internal>();

  count(appId: number, kind: string, outcome: string): void {
    const key = `${appId} ${kind} ${outcome}`;
    let series = this.#series.get(key);
    if (!series) {
      series = this.calls.labels({ app_id: String(appId), kind, outcome });
      this.#series.set(key, series);
    }
    series.inc();
  }

  attach(registry: client.Registry): void {
    attachOnce(registry, { game_calls_total: this.calls });
  }
}
