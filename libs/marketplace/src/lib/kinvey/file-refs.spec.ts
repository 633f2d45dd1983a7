import { fileIdsIn, mapFileRefs, reduceFileRefs } from './file-refs';

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
});
