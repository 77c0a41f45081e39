/**
 * /metrics of a process with a pipeline thread: the thread's registry is summed into this one's,
 * and a thread that does not answer leaves this thread's metrics served, with a line saying what
 * is missing and a counter of such failures.
 */
import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics';

describe('Metrics.render with another thread', () => {
  it('sums what the other thread answers', async () => {
    const main = new Metrics({ defaultMetrics: false });
    const thread = new Metrics({ defaultMetrics: false });
    main.messagesProduced.inc({ topic: 'leads.submitted' }, 2);
    thread.messagesProduced.inc({ topic: 'leads.submitted' }, 3);
    main.addRemote(() => thread.registry.getMetricsAsJSON());
    expect(await main.render()).toContain('leadstream_messages_produced_total{topic="leads.submitted"} 5');
  });

  it("serves this thread's metrics and says the other thread's are missing when it does not answer", async () => {
    const main = new Metrics({ defaultMetrics: false });
    main.messagesProduced.inc({ topic: 'leads.submitted' }, 2);
    main.addRemote(() => Promise.reject(new Error('the pipeline thread did not answer host.metrics within 1500 ms')));
    const text = await main.render();
    expect(text).toContain('leadstream_messages_produced_total{topic="leads.submitted"} 2');
    expect(text).toContain('# missing: the pipeline thread did not answer host.metrics within 1500 ms');
    expect(text).toContain('leadstream_remote_metrics_failures_total 1');
    // Every exposition line is still a comment or a sample: a scraper takes the text as it is.
    for (const line of text.split('\n').filter(Boolean)) expect(line).toMatch(/^(#|leadstream_)/);
  });
});
