import {
  fileIdsIn,
  mapFileRefs,
  reduceFileRefs,
  storedRefsInText,
} from './file-refs';

/** A stored reference `depth` containers deep, as PostgreSQL renders jsonb. */
function nestedRefText(depth: number, text = ''): string {
  let inner = '{"_id": "f1", "_type": "KinveyFile"}';
  for (let i = 1; i < depth; i++) inner = `{"a": ${inner}}`;
  return `{"s": ${JSON.stringify(text)}, "image": ${inner}}`;
}

describe('file references', () => {
  const expanded = {
    _type: 'KinveyFile',
    _id: 'f1',
    _downloadURL: 'http://x/y',
    _filename: 'a.png',
  };

  it('reduces expanded references anywhere in a record to {_type, _id}', () => {
    const record = {
      name: 'Tomato',
      image: expanded,
      available: [
        { name: 'x', image: { ...expanded, _id: 'f2', _type: 'ServiceFile' } },
      ],
    };
    expect(reduceFileRefs(record)).toEqual({
      name: 'Tomato',
      image: { _type: 'KinveyFile', _id: 'f1' },
      available: [{ name: 'x', image: { _type: 'ServiceFile', _id: 'f2' } }],
    });
    expect(record.image).toBe(expanded);
  });

  it('leaves objects that are not references alone', () => {
    const record = {
      image: { _downloadURL: 'http://x' },
      other: { _type: 'KinveyRef', _id: 'r' },
    };
    expect(reduceFileRefs(record)).toEqual(record);
    expect(fileIdsIn([record])).toEqual([]);
  });

  it('collects each referenced id once across records', () => {
    expect(
      fileIdsIn([
        { image: expanded },
        { a: [expanded, { ...expanded, _id: 'f3' }] },
      ]),
    ).toEqual(['f1', 'f3']);
    expect(mapFileRefs({ image: expanded }, (ref) => ref._id)).toEqual({
      image: 'f1',
    });
  });

  it('finds stored references in jsonb text as deep as the record walk does', () => {
    for (const strings of ['', '{[{[{[{[{[{[{[{[{[{[']) {
      // Depth 8 is the walk's limit (the record itself is depth 0).
      const at8 = nestedRefText(8, strings);
      expect(storedRefsInText(at8)?.map((ref) => ref._id)).toEqual(['f1']);
      expect(fileIdsIn([JSON.parse(at8)])).toEqual(['f1']);
      // One deeper: the walk leaves it alone, so the text is not trusted.
      const at9 = nestedRefText(9, strings);
      expect(storedRefsInText(at9)).toBeUndefined();
      expect(fileIdsIn([JSON.parse(at9)])).toEqual([]);
    }
  });

  it('reads in jsonb text only what the record walk reads as a reference', () => {
    const ids = (text: string) =>
      storedRefsInText(text)?.map((ref) => `${ref._type}:${ref._id}`);
    // A reference written inside a string is text.
    const quoted = JSON.stringify('{"_id": "f1", "_type": "KinveyFile"}');
    expect(ids(`{"note": ${quoted}}`)).toEqual([]);
    expect(ids('{"a": {"_id": "f1", "_type": "KinveyRef"}}')).toEqual([]);
    expect(
      ids(
        '{"a": {"_id": "f1", "_type": "ServiceFile"}, "b": [{"_id": "f2", "_type": "KinveyFile"}]}',
      ),
    ).toEqual(['ServiceFile:f1', 'KinveyFile:f2']);
    // A file type the text cannot show exactly (more keys): parse it.
    const extra = '{"a": {"_id": "f1", "_type": "KinveyFile", "extra": 1}}';
    expect(ids(extra)).toBeUndefined();
    expect(fileIdsIn([JSON.parse(extra)])).toEqual(['f1']);
    expect(ids('{"_type": "KinveyFile"}')).toBeUndefined();
  });
});
