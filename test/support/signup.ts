/**
 * Signs up a new organisation on a service running over HTTP (a local runtime, a benchmark's
 * service process) and answers its session cookie (`service_session=…`).
 */
export async function signUpOver(baseUrl: string, email: string, name = 'Runtime user'): Promise<string> {
  const response = await fetch(`${baseUrl}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, password: 'a long enough password' }),
  });
  if (response.status !== 201) throw new Error(`signup answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}
