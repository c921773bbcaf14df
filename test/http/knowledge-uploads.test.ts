import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * Files sent to an upload, then made documents (issue 49: up to 20 MB on AWS, where a request to
 * the API is at most 6 MB): `POST …/knowledge/uploads`, the file to the upload's URL (here the
 * service's own route, with its token as a form field), then `POST …/knowledge/documents
 * { upload_id }`. Attack first: a wrong token, a file larger than said, another tenant's upload, a
 * second claim, an expired upload, 30 MB.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

const MARKDOWN = '# Parking\n\nThe car park under building B opens at 7:00 and visitors park on level -2 with a ticket from reception.\n';

async function workspaceOf() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Uploads ${t.uniqueEmail('ws')}` });
  return { admin, workspaceId: workspace.id as string };
}

interface Upload {
  id: string;
  url: string;
  fields: Record<string, string>;
  max_bytes: number;
  expires_at: string;
}

async function askUpload(cookie: string, workspaceId: string, body: Record<string, unknown>) {
  return t.request('POST', `/api/workspaces/${workspaceId}/knowledge/uploads`, { cookie, body });
}

/** The file sent to the upload's URL as a client does: its fields first, the file last. */
function send(upload: Upload, file: File, fields: Record<string, string> = upload.fields) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file);
  return t.request('POST', new URL(upload.url).pathname, { raw: form });
}

const claim = (cookie: string, workspaceId: string, uploadId: string) =>
  t.request('POST', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie, body: { upload_id: uploadId } });

const markdownFile = () => new File([MARKDOWN], 'parking.md', { type: 'text/markdown' });

describe('knowledge uploads', () => {
  it('takes a file sent to its upload, makes it a document once, and keeps no copy of the upload', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const asked = await askUpload(admin.cookie, workspaceId, {
      filename: 'parking.md',
      bytes: MARKDOWN.length,
      content_type: 'text/markdown',
    });
    expect(asked.status, asked.text).toBe(201);
    const upload = asked.body.upload as Upload;
    expect(upload.url).toMatch(new RegExp(`/api/knowledge-uploads/${upload.id}$`));
    expect(Object.keys(upload.fields)).toEqual(['token']);
    expect(upload.max_bytes).toBe(MARKDOWN.length);
    // The token is a secret of the client's: only its digest is kept.
    const stored = await t.deps.table.get({ pk: `KUPLOAD#${upload.id}`, sk: 'UPLOAD' });
    expect(stored?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const item = JSON.stringify(stored);
    expect(item).not.toContain(upload.fields.token);

    const sent = await send(upload, markdownFile());
    expect(sent.status, sent.text).toBe(204);
    const kept = await t.deps.blobs.get(`uploads/${admin.org.id}/${workspaceId}/${upload.id}`);
    expect(new TextDecoder().decode(kept)).toBe(MARKDOWN);
    const created = await claim(admin.cookie, workspaceId, upload.id);
    expect(created.status, created.text).toBe(202);
    expect(created.body.document).toMatchObject({ title: 'parking', filename: 'parking.md', kind: 'markdown', status: 'queued' });
    await t.runner.idle();
    const found = await t.request(
      'GET',
      `/api/workspaces/${workspaceId}/knowledge/search?q=${encodeURIComponent('where do visitors park')}`,
      {
        cookie: admin.cookie,
      },
    );
    expect(found.body.passages[0]).toMatchObject({ document_id: created.body.document.id });
    expect(found.body.passages[0].text).toContain('level -2');

    // Claimed once: the upload and its file are gone, so a second claim or a late file is 404.
    expect(await t.deps.blobs.get(`uploads/${admin.org.id}/${workspaceId}/${upload.id}`)).toBeUndefined();
    expect((await claim(admin.cookie, workspaceId, upload.id)).status).toBe(404);
    expect((await send(upload, markdownFile())).status).toBe(404);
    const listed = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie: admin.cookie });
    expect(listed.body.documents).toHaveLength(1);
  });

  it('refuses a wrong token, a file larger than said, a claim before the file, and 30 MB, writing nothing', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const tooLarge = await askUpload(admin.cookie, workspaceId, { filename: 'big.pdf', bytes: 30 * 1024 * 1024 });
    expect(tooLarge.status, tooLarge.text).toBe(413);
    expect(tooLarge.body.error).toContain('20 MB');
    const badBody = await askUpload(admin.cookie, workspaceId, { filename: '', bytes: 0 });
    expect(badBody.status).toBe(400);
    expect(badBody.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['bytes', 'filename']);

    const upload = (await askUpload(admin.cookie, workspaceId, { filename: 'parking.md', bytes: MARKDOWN.length })).body.upload as Upload;
    const early = await claim(admin.cookie, workspaceId, upload.id);
    expect(early.status, early.text).toBe(400);
    expect(early.body.details[0].path).toBe('upload_id');
    const forged = await send(upload, markdownFile(), { token: 'not-the-token' });
    expect(forged.status).toBe(404);
    const longer = await send(upload, new File([`${MARKDOWN}and more`], 'parking.md'));
    expect(longer.status, longer.text).toBe(413);
    const huge = await send(upload, new File([new Uint8Array(30 * 1024 * 1024).fill(65)], 'parking.md'));
    expect(huge.status, huge.text).toBe(413);
    expect(await t.deps.blobs.get(`uploads/${admin.org.id}/${workspaceId}/${upload.id}`)).toBeUndefined();

    // A file of a kind the service does not read is refused at the claim, and the upload stays to be sent again.
    expect((await send(upload, new File([new Uint8Array([0, 1, 2, 255, 254, 0])], 'parking.md'))).status).toBe(204);
    const binary = await claim(admin.cookie, workspaceId, upload.id);
    expect(binary.status, binary.text).toBe(400);
    expect((await send(upload, markdownFile())).status).toBe(204);
    expect((await claim(admin.cookie, workspaceId, upload.id)).status).toBe(202);
  });

  it('answers a file for an upload that is not there, or longer than its upload said, before reading its body', async () => {
    const { admin, workspaceId } = await workspaceOf();
    // A body that trickles in, as a stranger can send to the public route: 1 MiB over 4 s. Read, it
    // would hold the request (and its memory) until the last byte.
    const trickle = () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent === 16) return controller.close();
          sent += 1;
          await new Promise((resolve) => setTimeout(resolve, 250));
          controller.enqueue(new Uint8Array(64 * 1024).fill(65));
        },
      });
    };
    const post = async (uploadId: string, declared: number) => {
      const answer = await Promise.race([
        t.app.request(`/api/knowledge-uploads/${uploadId}`, {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(declared) },
          body: trickle(),
          duplex: 'half',
        } as RequestInit),
        new Promise<undefined>((resolve) => setTimeout(resolve, 2_000, undefined)),
      ]);
      return answer?.status;
    };
    expect(await post('ku_0mxd00000000000000000000000000', 1024 * 1024)).toBe(404);
    const upload = (await askUpload(admin.cookie, workspaceId, { filename: 'parking.md', bytes: MARKDOWN.length })).body.upload as Upload;
    expect(await post(upload.id, 10 * 1024 * 1024)).toBe(413);
    // The upload is still there for its real file.
    expect((await send(upload, markdownFile())).status).toBe(204);
  });

  it('never lets another workspace or organisation claim an upload, nor a member ask for one, and ends an upload after 15 minutes', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const upload = (await askUpload(admin.cookie, workspaceId, { filename: 'parking.md', bytes: MARKDOWN.length })).body.upload as Upload;
    expect((await send(upload, markdownFile())).status).toBe(204);

    const sibling = await t.createWorkspace(admin.cookie, { name: `Sibling ${t.uniqueEmail('ws')}` });
    expect((await claim(admin.cookie, sibling.id, upload.id)).status).toBe(404);
    const stranger = await workspaceOf();
    expect((await claim(stranger.admin.cookie, stranger.workspaceId, upload.id)).status).toBe(404);
    expect((await claim(stranger.admin.cookie, workspaceId, upload.id)).status).toBe(404);
    const member = await t.addMember(admin.cookie, { name: 'Mo Member' });
    expect((await askUpload(member.cookie, workspaceId, { filename: 'x.md', bytes: 10 })).status).toBe(403);

    const late = (await askUpload(admin.cookie, workspaceId, { filename: 'parking.md', bytes: MARKDOWN.length })).body.upload as Upload;
    expect((await send(late, markdownFile())).status).toBe(204);
    t.clock.advance(16 * 60 * 1000);
    expect((await send(late, markdownFile())).status).toBe(404);
    expect((await claim(admin.cookie, workspaceId, late.id)).status).toBe(404);
    const listed = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie: admin.cookie });
    expect(listed.body.documents).toEqual([]);
  });
});
