// Reading an archive the service wrote (the data export), entry by entry, with yauzl.
import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  data: Buffer;
  compressionMethod: number;
}

export async function unzip(archive: Buffer): Promise<ZipEntry[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const entries: ZipEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        entries.push({ name: entry.fileName, data: Buffer.concat(chunks), compressionMethod: entry.compressionMethod });
        zip.readEntry();
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** account.json of an export archive, parsed. */
export async function exportDocument(archive: Buffer): Promise<any> {
  const json = (await unzip(archive)).find((entry) => entry.name === 'account.json');
  if (!json) throw new Error('account.json is not in the archive');
  return JSON.parse(json.data.toString('utf8'));
}
