import { createServer, type AddressInfo } from 'node:net';
import { classifySendError, SmtpMailer, type SendOutcome } from './smtp-mailer';

describe('classifySendError', () => {
  const error = (code: string | undefined, responseCode: number | undefined, message: string) => Object.assign(new Error(message), { code, responseCode });

  it('retries connection failures and temporary (4xx) answers', () => {
    expect(classifySendError(error('ECONNECTION', undefined, 'connect ECONNREFUSED 127.0.0.1:25'))).toEqual({
      status: 'retry',
      reason: 'ECONNECTION connect ECONNREFUSED 127.0.0.1:25',
    });
    expect(classifySendError(error('ETIMEDOUT', undefined, 'Greeting never received')).status).toBe('retry');
    expect(classifySendError(error('EENVELOPE', 451, 'Try again later')).status).toBe('retry');
    // A rejected login is a configuration problem the operator can fix: the mail waits for it.
    expect(classifySendError(error('EAUTH', 535, 'Invalid login')).status).toBe('retry');
  });

  it('gives up on permanent (5xx) refusals and unknown failures', () => {
    expect(classifySendError(error('EENVELOPE', 550, 'No such user'))).toEqual({ status: 'refused', reason: 'EENVELOPE 550 No such user' });
    expect(classifySendError(new TypeError('bug')).status).toBe('refused');
  });
});

describe('SmtpMailer', () => {
  it('reports every mail of a batch for retry, without trying the rest, when the server cannot be reached', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const mailer = new SmtpMailer(
      { host: '127.0.0.1', port, user: 'glossa', password: 'hunter2', useTls: false, useSsl: false, fromAddress: 'noreply@example.org', subjectPrefix: '' },
      'Glossa test',
    );
    const mail = { fromName: 'Glossa', to: 'reader@example.org', subject: 'Hello', html: '<p>Hello</p>', text: 'Hello', headers: {} };
    const outcomes: Array<[number, SendOutcome]> = [];
    await mailer.sendBatch([mail, mail, mail], async (index, outcome) => {
      outcomes.push([index, outcome]);
    });
    expect(outcomes.map(([index, outcome]) => [index, outcome.status])).toEqual([[0, 'retry'], [1, 'retry'], [2, 'retry']]);
    expect(outcomes[0][1]).toMatchObject({ reason: expect.stringContaining('ECONNREFUSED') });
    expect(JSON.stringify(outcomes)).not.toContain('hunter2');
  });
});
