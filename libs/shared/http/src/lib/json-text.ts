/**
 * A response body that is JSON text already (PostgreSQL's own rendering of
 * stored documents), written as it is instead of parsed and serialised
 * again. `toJSON` keeps it correct wherever it is serialised as a value.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
