import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { type Principal, sessionSignIn } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { NotFoundError } from '../platform/errors.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import { recordConsent } from './clients.js';
import { accountIdOf } from './accounts.js';
import { providerEpochSeconds } from './adapter.js';
import { nodeRequestOf } from './bridge.js';
import { providerFor } from './provider.js';
import { issuerOf, MCP_SCOPE, workspaceOfResource } from './resources.js';

/*
 * The console's consent page (`/oauth/consent/:uid`) through the API: what an authorization asks
 * (the client, where it sends the person back, the workspace) and the person's decision, which the
 * provider reads when the browser goes back to it (`returnTo`).
 */

export interface ConsentRequest {
  client: { id: string; name: string; verified: boolean; redirect_host: string };
  workspace: { id: string; name: string };
  expires_at: string;
}

const notFound = () => new NotFoundError('this sign-in request is unknown or has expired: connect again from your MCP client');

/**
 * The interaction and its client, when it is an authorization still waiting for the person, asked
 * from the browser that started it: the provider's signed interaction cookie must name it. A
 * consent page's address sent to someone else (another browser) is unknown there, so a person is
 * never made to allow an authorization whose code would go back to someone else's browser.
 */
async function pendingAuthorization(provider: Provider, issuer: string, uid: string, request: Request) {
  const { req, res } = nodeRequestOf(new Request(request.url, { headers: request.headers }), issuer);
  const interaction = await provider.interactionDetails(req, res).catch(() => undefined);
  if (!interaction || interaction.uid !== uid || interaction.result) throw notFound();
  const clientId = String(interaction.params.client_id ?? '');
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) throw notFound();
  return { interaction, client, clientId };
}

/** A client identified by its metadata document's URL is named by the domain that serves it; a registered one names itself. */
function clientOf(clientId: string, client: { clientName?: string }, redirectUri: string): ConsentRequest['client'] {
  const verified = clientId.startsWith('https://');
  const declared = client.clientName?.trim() || 'an unnamed client';
  const name = verified ? `${declared} (${new URL(clientId).host})` : declared;
  return { id: clientId, name, verified, redirect_host: new URL(redirectUri).host };
}

async function workspaceAsked(deps: Deps, principal: Principal, issuer: string, interaction: Interaction) {
  const workspaceId = workspaceOfResource(issuer, String(interaction.params.resource ?? ''));
  if (!workspaceId) throw notFound();
  return getWorkspaceItem(deps, principal.orgId, workspaceId);
}

/** What the consent page shows. A workspace of another organisation is 404, as everywhere. */
export async function consentRequest(deps: Deps, principal: Principal, request: Request, uid: string): Promise<ConsentRequest> {
  const issuer = issuerOf(deps, request.url);
  const { interaction, client, clientId } = await pendingAuthorization(await providerFor(deps, issuer), issuer, uid, request);
  const workspace = await workspaceAsked(deps, principal, issuer, interaction);
  return {
    client: clientOf(clientId, client, String(interaction.params.redirect_uri ?? '')),
    workspace: { id: workspace.id, name: workspace.name },
    expires_at: new Date(interaction.exp * 1000).toISOString(),
  };
}

/**
 * The person's answer: Allow grants the client the `mcp` scope at the one workspace asked (a grant
 * of its own, recorded among the person's connected clients); Deny sends the client
 * `access_denied`. Either way the browser goes on to `redirect_to`, the provider's resume address.
 */
export async function decide(
  deps: Deps,
  principal: Principal,
  request: Request,
  uid: string,
  decision: 'allow' | 'deny',
): Promise<{ redirect_to: string }> {
  const issuer = issuerOf(deps, request.url);
  const provider = await providerFor(deps, issuer);
  const { interaction, client, clientId } = await pendingAuthorization(provider, issuer, uid, request);
  const workspace = await workspaceAsked(deps, principal, issuer, interaction);
  const seconds = Math.max(1, interaction.exp - providerEpochSeconds());
  if (decision === 'deny') {
    interaction.result = { error: 'access_denied', error_description: 'the person refused the access' };
    await interaction.save(seconds);
    return { redirect_to: interaction.returnTo };
  }
  const signIn = principal.sessionId ? await sessionSignIn(deps, principal.sessionId) : undefined;
  const accountId = accountIdOf(principal, signIn);
  const grant = new provider.Grant({ accountId, clientId });
  grant.addResourceScope(String(interaction.params.resource), MCP_SCOPE);
  // The scopes asked for (`mcp`, and `openid` if a client asks for it) are granted as asked: the provider checks them as OpenID scopes too.
  const asked = String(interaction.params.scope ?? '')
    .split(' ')
    .filter((scope) => scope === MCP_SCOPE || scope === 'openid');
  if (asked.length) grant.addOIDCScope(asked.join(' '));
  const grantId = await grant.save();
  await recordConsent(deps, principal, {
    client: clientOf(clientId, client, String(interaction.params.redirect_uri ?? '')),
    workspaceId: workspace.id,
    grantId,
  });
  interaction.result = { login: { accountId }, consent: { grantId } };
  await interaction.save(seconds);
  return { redirect_to: interaction.returnTo };
}
