import { PassThrough } from 'node:stream';
import winston from 'winston';
import { createLogger } from '../src/index.js';

const LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly', 'nope', ''];
const winstonsOwn = winston.Logger.prototype.isLevelEnabled;

/** Every level asked of `logger` gets winston's own answer. */
function expectWinstonsAnswers(logger: winston.Logger): void {
  expect(logger.isLevelEnabled).not.toBe(winstonsOwn);
  for (const level of LEVELS) expect([level, logger.isLevelEnabled(level)]).toEqual([level, winstonsOwn.call(logger, level)]);
}

describe('isLevelEnabled', () => {
  it.each(['error', 'warn', 'info', 'http', 'debug', 'silent'])('answers as winston does at level %s, with the one transport', (level) => {
    expectWinstonsAnswers(createLogger({ service: 'svc', level, stream: new PassThrough() }));
  });

  it('answers as winston does with no transport, several, and transports of their own levels', () => {
    const logger = createLogger({ service: 'svc', level: 'info', stream: new PassThrough() });
    const [first] = logger.transports;
    logger.remove(first);
    expectWinstonsAnswers(logger);
    for (const level of [undefined, 'error', 'debug', 'nope']) {
      const own = new winston.transports.Stream({ stream: new PassThrough(), level });
      logger.add(own);
      expectWinstonsAnswers(logger);
      logger.add(new winston.transports.Stream({ stream: new PassThrough(), level: 'warn' }));
      expectWinstonsAnswers(logger);
      logger.clear();
      expectWinstonsAnswers(logger);
    }
  });

  it('follows a level changed after the logger was made', () => {
    const logger = createLogger({ service: 'svc', level: 'warn', stream: new PassThrough() });
    expect(logger.isLevelEnabled('http')).toBe(false);
    logger.level = 'http';
    expect(logger.isLevelEnabled('http')).toBe(true);
    expectWinstonsAnswers(logger);
    logger.level = 'nope';
    expectWinstonsAnswers(logger);
  });
});
