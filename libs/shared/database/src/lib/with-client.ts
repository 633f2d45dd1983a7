import { Client } from 'pg';

/** One connection to `url` for `work`, closed afterwards whatever happens. */
export async function withClient<T>(
  url: string,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
