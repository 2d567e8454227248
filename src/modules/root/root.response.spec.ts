import { entityTag } from '../../common/http/preconditions';
import { LinkBuilder } from '../../common/links/link-builder';
import { serializeJson } from '../../common/serialization/json-writer';
import { RootAnswers, toApiRootResponse } from './root.response';

describe('toApiRootResponse', () => {
  it('links every list route, in Weblate\'s order, with the format kept', () => {
    const links = new LinkBuilder('http://127.0.0.1:8000', 'https://glossa.example', 'api');
    expect(Object.entries(toApiRootResponse(links))).toEqual(
      ['users', 'projects', 'components', 'translations', 'languages', 'changes', 'units'].map((name) => [name, `http://127.0.0.1:8000/api/${name}/?format=api`]),
    );
  });
});

describe('RootAnswers', () => {
  const links = (origin: string, format: string | null) => new LinkBuilder(origin, 'https://glossa.example', format);

  it('answers the JSON and the entity tag that serializing and hashing the root gives', () => {
    for (const format of ['api', 'json', '', null]) {
      const builder = links('http://h:1', format);
      const answer = new RootAnswers().for(builder);
      const text = serializeJson(toApiRootResponse(builder));
      expect(answer.json.text).toBe(text);
      expect(answer.etag).toBe(entityTag(text));
    }
  });

  it('keeps one answer per origin and format', () => {
    const answers = new RootAnswers();
    const first = answers.for(links('http://a', 'api'));
    expect(answers.for(links('http://a', 'api'))).toBe(first);
    expect(answers.for(links('http://b', 'api')).json.text).toContain('http://b/api/users/?format=api');
    expect(answers.for(links('http://a', null)).json.text).toContain('"http://a/api/users/"');
    expect(answers.for(links('http://a', '')).json.text).toContain('"http://a/api/users/?format="');
  });

  it('holds a bounded number of link sets: a Host header per request cannot grow it', () => {
    const answers = new RootAnswers();
    const first = answers.for(links('http://host-0', 'api'));
    for (let i = 1; i <= 16; i += 1) answers.for(links(`http://host-${i}`, 'api'));
    // The seventeenth link set started the map over, so the first is made again (an equal answer, a new object).
    const again = answers.for(links('http://host-0', 'api'));
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
