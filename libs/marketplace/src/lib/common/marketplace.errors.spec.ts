import { MarketplaceError } from './marketplace.errors';

describe('MarketplaceError plain messages', () => {
  it('names what is missing in plain words, keeping Kinvey’s description for the wire', () => {
    const missing = MarketplaceError.collectionNotFound('orders');
    expect(missing.message).toBe(
      'This collection not found for this app backend',
    );
    expect(missing.plainMessage).toBe('No collection orders in this app.');
    expect(MarketplaceError.appNotFound('kid_x').plainMessage).toBe(
      'No app kid_x.',
    );
    expect(MarketplaceError.blobNotFound('f1').plainMessage).toBe(
      'No file f1 in this app.',
    );
  });

  it('reads any other error as its description with its detail', () => {
    expect(
      MarketplaceError.badRequest('The request is invalid.', 'limit')
        .plainMessage,
    ).toBe('The request is invalid. (limit)');
    expect(MarketplaceError.notAnObject().plainMessage).toBe(
      'The body must be a JSON object.',
    );
  });
});
