import type { SecretBox } from '@firewatch/secret-box';

/** The one dependencies object the webhooks service hands its registry's hooks. */
export interface WebhooksResourceDeps {
  /** Accept http:// URLs (loopback receivers in tests); https only otherwise. */
  allowHttp: boolean;
  secretBox: SecretBox;
  /** Endpoints one team may have (every event fans out to each of them). */
  maxEndpointsPerTeam: number;
}
