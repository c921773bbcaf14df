import { describe, expect, it } from 'vitest';
import { approvalExpiryEntry, approvalKey, approvalsOfWorkspace, approvalStatusListing } from '../../shared/approvals/entities.js';
import {
  addressLoginThrottleKey,
  firstSignupKey,
  loginFromThrottleKey,
  loginThrottleKey,
  sessionKey,
  signupThrottleKey,
  ssoStartThrottleKey,
} from '../../shared/auth/entities.js';
import { budgetSpendKey, budgetsKey } from '../../shared/budgets/entities.js';
import {
  channelBindingKey,
  channelListing,
  chatEventSeenKey,
  chatLinkKey,
  chatLinkRequestKey,
  chatLinksOfOrganisation,
  chatMessageSeenKey,
} from '../../shared/chat/entities.js';
import { isConnectionItem } from '../../shared/connections/entities.js';
import { apiKeyKey, consumerKey, consumerLookup, isConsumerItem } from '../../shared/consumers/entities.js';
import { countsKey, evaluationKey, isRunKey, resultKey, resultsOfRun, runKey, runsOfEvaluation } from '../../shared/evals/entities.js';
import { invitationKey, invitationListing } from '../../shared/invitations/entities.js';
import { emailKey, organisationKey, orgSlugClaimKey, userKey, usersOfOrganisation } from '../../shared/org/entities.js';
import { chatOrganisationEntry, settingKey, settingsOfOrganisation } from '../../shared/org/setting-entities.js';
import { membershipKeys, membersOfTeam, teamKey, teamNameKey, teamsOfOrganisation, teamsOfUser } from '../../shared/org/team-entities.js';
import { requestRateKey } from '../../shared/platform/entities.js';
import type { QueryInput } from '../../shared/platform/table.js';
import { scimKey } from '../../shared/scim/entities.js';
import { ssoDomainKey, ssoKey, ssoStateKey } from '../../shared/auth/sso/entities.js';
import { queryTakes as takes } from '../support/queries.js';

/**
 * The stored key layout of `docs/data-model.md` of the items whose keys live beside their entities,
 * spelled out: a builder that changes a byte here would orphan stored items, so this test must
 * change with the docs (and with a migration of what is stored).
 */
describe('entity keys', () => {
  it('build the organisation, people and sign-in items byte for byte', () => {
    expect(organisationKey('o1')).toEqual({ pk: 'ORG#o1', sk: 'ORG' });
    expect(orgSlugClaimKey('acme')).toEqual({ pk: 'ORGSLUG#acme', sk: 'ORGSLUG' });
    expect(userKey('o1', 'u1')).toEqual({ pk: 'ORG#o1', sk: 'USER#u1' });
    expect(emailKey('A@Example.com')).toEqual({ pk: 'EMAIL#a@example.com', sk: 'EMAIL' });
    expect(teamKey('o1', 't1')).toEqual({ pk: 'ORG#o1', sk: 'TEAM#t1' });
    expect(teamNameKey('o1', ' Support ')).toEqual({ pk: 'ORG#o1', sk: 'TEAMNAME#support' });
    expect(membershipKeys('o1', 't1', 'u1')).toEqual([
      { pk: 'ORG#o1', sk: 'TEAMMEMBER#t1#u1' },
      { pk: 'ORG#o1', sk: 'USERTEAM#u1#t1' },
    ]);
    expect(settingKey('o1', 'ai_provider')).toEqual({ pk: 'ORG#o1', sk: 'SETTING#ai_provider' });
    expect(chatOrganisationEntry('o1')).toEqual({ gsi1pk: 'CHATORGS', gsi1sk: 'o1' });
    expect(scimKey('o1')).toEqual({ pk: 'ORG#o1', sk: 'SCIM' });
    expect(ssoKey('o1')).toEqual({ pk: 'ORG#o1', sk: 'SSO' });
    expect(ssoDomainKey('Example.COM')).toEqual({ pk: 'SSODOMAIN#example.com', sk: 'DOMAIN' });
    expect(ssoStateKey('s1')).toEqual({ pk: 'SSOSTATE#s1', sk: 'STATE' });
    expect(sessionKey('x')).toEqual({ pk: 'SESSION#x', sk: 'SESSION' });
    expect(loginThrottleKey('A@b.c', 7)).toEqual({ pk: 'THROTTLE#a@b.c', sk: 'LOGIN#7' });
    expect(loginFromThrottleKey('A@b.c', '10.0.0.1', 7)).toEqual({ pk: 'THROTTLE#a@b.c', sk: 'LOGIN#7#10.0.0.1' });
    expect(addressLoginThrottleKey('10.0.0.1', 7)).toEqual({ pk: 'THROTTLE#ADDR#10.0.0.1', sk: 'LOGIN#7' });
    expect(signupThrottleKey('10.0.0.1', 7)).toEqual({ pk: 'THROTTLE#ADDR#10.0.0.1', sk: 'SIGNUP#7' });
    expect(ssoStartThrottleKey('10.0.0.1', 7)).toEqual({ pk: 'THROTTLE#ADDR#10.0.0.1', sk: 'SSO#7' });
    expect(firstSignupKey()).toEqual({ pk: 'DEPLOYMENT', sk: 'FIRST_SIGNUP' });
    expect(invitationKey('abc')).toEqual({ pk: 'INVITE#abc', sk: 'INVITATION' });
    expect(invitationListing('o1', 'T', 'i1')).toEqual({ gsi1pk: 'ORG#o1#INVITES', gsi1sk: 'T#i1' });
    expect(requestRateKey('org:o1', 5)).toEqual({ pk: 'REQRATE#org:o1', sk: 'M#5' });
  });

  it('build the chat, consumer, budget, approval and evaluation items byte for byte', () => {
    expect(consumerKey('o1', 'ws-a', 'tc-ws-a')).toEqual({ pk: 'WS#o1#ws-a', sk: 'CONSUMER#tc-ws-a' });
    expect(consumerLookup('x1')).toEqual({ gsi2pk: 'CONSUMERID#x1', gsi2sk: 'CONSUMER' });
    expect(apiKeyKey('abc')).toEqual({ pk: 'APIKEY#abc', sk: 'KEY' });
    expect(channelBindingKey('o1', 'C1')).toEqual({ pk: 'CHANNEL#o1#C1', sk: 'CHANNEL' });
    expect(channelListing('o1', 'ws-a', 'C1')).toEqual({ gsi1pk: 'WSCHANNELS#o1#ws-a', gsi1sk: 'C1' });
    expect(chatEventSeenKey('o1', 'Ev1')).toEqual({ pk: 'CHATEVENT#o1#Ev1', sk: 'SEEN' });
    expect(chatMessageSeenKey('o1', 'C1', '17.5')).toEqual({ pk: 'CHATMSG#o1#C1#17.5', sk: 'SEEN' });
    expect(chatLinkKey('o1', 'T1', 'U1')).toEqual({ pk: 'ORG#o1', sk: 'CHATLINK#T1#U1' });
    expect(chatLinkRequestKey('abc')).toEqual({ pk: 'CHATLINKREQ#abc', sk: 'REQUEST' });
    expect(budgetsKey('o1')).toEqual({ pk: 'ORG#o1', sk: 'BUDGETS' });
    expect(budgetSpendKey('b1', '2024-01')).toEqual({ pk: 'BUDGETSPEND#b1', sk: '2024-01' });
    expect(approvalKey('o1', 'ws-a', 'a1')).toEqual({ pk: 'WSAPPR#o1#ws-a', sk: 'APPR#a1' });
    expect(approvalStatusListing('o1', 'ws-a', 'pending', 'a1')).toEqual({ gsi2pk: 'WSAPPR#o1#ws-a#pending', gsi2sk: 'a1' });
    const expiry = approvalExpiryEntry('o1', 'ws-a', 'a1', 'T');
    expect(expiry.gsi3pk).toMatch(/^DUE#approval#([0-9]|[12][0-9]|3[01])$/);
    expect(expiry).toMatchObject({ gsi3sk: 'T#o1#ws-a#a1', due_at: 'T' });
    expect(evaluationKey('o1', 'ws-a', 'e1')).toEqual({ pk: 'WSEVAL#o1#ws-a', sk: 'EVAL#e1' });
    expect(runKey('e1', 'r1')).toEqual({ pk: 'EVALRUN#e1', sk: 'RUN#r1' });
    expect(resultKey('e1', 'r1', 7)).toEqual({ pk: 'EVALRUN#e1', sk: 'RES#r1#0007' });
    expect(countsKey('o1')).toEqual({ pk: 'ORG#o1', sk: 'EVALCOUNTS' });
  });

  it('read in each Query the items of its pattern, and only them', () => {
    const partition = [
      organisationKey('o'),
      userKey('o', 'u'),
      teamKey('o', 't'),
      teamNameKey('o', 't'),
      ...membershipKeys('o', 't', 'u'),
      settingKey('o', 's'),
      chatLinkKey('o', 'T', 'U'),
      scimKey('o'),
      ssoKey('o'),
      budgetsKey('o'),
      countsKey('o'),
    ];
    const read = (query: QueryInput) => partition.filter((key) => takes(query, key));
    expect(read(usersOfOrganisation('o'))).toEqual([userKey('o', 'u')]);
    expect(read(teamsOfOrganisation('o'))).toEqual([teamKey('o', 't')]);
    expect(read(membersOfTeam('o', 't'))).toEqual([membershipKeys('o', 't', 'u')[0]]);
    expect(read(teamsOfUser('o', 'u'))).toEqual([membershipKeys('o', 't', 'u')[1]]);
    expect(read(settingsOfOrganisation('o'))).toEqual([settingKey('o', 's')]);
    expect(read(chatLinksOfOrganisation('o'))).toEqual([chatLinkKey('o', 'T', 'U')]);
    expect(takes(approvalsOfWorkspace('o', 'w'), approvalKey('o', 'w', 'a'))).toBe(true);
    const runs = [runKey('e', 'r1'), resultKey('e', 'r1', 0), resultKey('e', 'r10', 0)];
    expect(runs.filter((key) => takes(runsOfEvaluation('e'), key))).toEqual([runKey('e', 'r1')]);
    expect(runs.filter((key) => takes(resultsOfRun('e', 'r1'), key))).toEqual([resultKey('e', 'r1', 0)]);
    expect(runs.map(isRunKey)).toEqual([true, false, false]);
    // A consumer is a workspace child apart from its connections.
    expect(isConsumerItem(consumerKey('o', 'w', 'c'))).toBe(true);
    expect(isConnectionItem(consumerKey('o', 'w', 'c'))).toBe(false);
  });
});
