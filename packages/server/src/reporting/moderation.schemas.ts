import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';
import { Cursor } from '../http/admin-query.js';
import { IdParam } from '../http/route-params.js';

// --- the operator side: moderation queue under /admin/v1 ---

export const ReportStatus = Type.Union([Type.Literal('open'), Type.Literal('actioned'), Type.Literal('dismissed')]);

const Time = (description: string) =>
  Type.String({
    pattern: '^([0-9]{1,15}|[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+(Z|[+-][0-9]{2}:?[0-9]{2})?)?)$',
    description: `${description} ISO 8601 date/time or Unix ms.`,
  });
const Limit = Type.String({ pattern: '^[0-9]{1,3}$', description: 'Page size, 1-200 (default 50).' });

/** The filters the report list and the reportee counts share: status, creation window (`what` created ...), page. */
const statusWindowPage = (what: string) => ({
  status: Type.Optional(ReportStatus),
  from: Type.Optional(Time(`${what} created at or after.`)),
  to: Type.Optional(Time(`${what} created before.`)),
  limit: Type.Optional(Limit),
  cursor: Type.Optional(Cursor),
});

export const ReportListQuery = Type.Object(
  {
    appId: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
    reportee: Type.Optional(Text({ minLength: 1, maxLength: 64, description: 'Reportee svcid or role_id.' })),
    reporter: Type.Optional(Text({ minLength: 1, maxLength: 64, description: 'Reporter svcid or role_id.' })),
    reasonId: Type.Optional(Type.String({ pattern: '^-?[0-9]{1,19}$', description: 'Reports citing this reason id.' })),
    ...statusWindowPage('Reports'),
  },
  { additionalProperties: false },
);
export type ReportListQuery = Static<typeof ReportListQuery>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Str = () => Nullable(Type.String());

const PlayerView = Type.Object({
  svcid: Str(),
  role_id: Str(),
  server_code: Str(),
  role_name: Str(),
  extra: Str(),
});

export const EvidenceView = Type.Object({
  name: Str(),
  size_byte: Type.String({ description: 'int64 as a string.' }),
  uri: Type.String(),
  contentType: Str(),
  downloadUrl: Type.Optional(
    Type.String({ description: 'Short-lived link (EVIDENCE_DOWNLOAD_TTL_SECONDS); only on a single report.' }),
  ),
  downloadExpiresAt: Type.Optional(Type.String({ format: 'date-time' })),
});

export const HistoryEntry = Type.Object({
  fromStatus: Str(),
  status: Type.String(),
  note: Str(),
  moderator: Str(),
  at: Type.String({ format: 'date-time' }),
});

export const ReportView = Type.Object(
  {
    reportId: Type.Integer(),
    appId: Type.Integer(),
    status: ReportStatus,
    createdAt: Type.String({ format: 'date-time' }),
    statusChangedAt: Type.String({ format: 'date-time' }),
    client_info: Type.Object({ client_id: Type.String(), ip: Str(), DeviceID: Str() }),
    reporter: PlayerView,
    reportee: PlayerView,
    reasons: Type.Array(
      Type.Object({ id: Type.String({ description: 'int64 as a string.' }), title: Str(), extras: Str() }),
    ),
    evidence: Type.Array(EvidenceView),
    user_description: Str(),
    extras: Str(),
    history: Type.Optional(
      Type.Array(HistoryEntry, { description: 'Status changes, oldest first; only on a single report.' }),
    ),
  },
  { $id: 'Report', title: 'Report' },
);
export type ReportView = Static<typeof ReportView>;

export const ReportList = Type.Object({
  reports: Type.Array(Type.Ref(ReportView)),
  nextCursor: Nullable(Type.String()),
});

export const ReportIdParams = Type.Object({ reportId: IdParam() });

export const ShowReportQuery = Type.Object(
  {
    moderator: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 100,
        description: 'Who is looking; recorded in the audit log with the evidence links issued.',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * A moderator decision on a report. Designed to grow: further optional
 * actions (e.g. banning the reportee) join `status` in this one body and are
 * applied and audited in the same transaction.
 */
export const ModerationBody = Type.Object(
  {
    moderator: Text({
      minLength: 1,
      maxLength: 100,
      description:
        "Who decides (recorded in the history and audit log). An operator account's own name replaces it; kept as given with the break-glass token.",
    }),
    status: ReportStatus,
    note: Text({ minLength: 1, maxLength: 4000, description: 'Why; kept in the history.' }),
    expectedStatus: Type.Optional(ReportStatus),
    ban: Type.Optional(
      Type.Object(
        {
          reason: Text({ minLength: 1, maxLength: 500 }),
          until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
            description: 'End of the ban; null bans until lifted.',
          }),
        },
        {
          additionalProperties: false,
          description:
            "Bans the reportee's platform account (its svcid): tokens revoked at once, logins refused until the ban ends.",
        },
      ),
    ),
    liftBan: Type.Optional(
      Type.Boolean({ description: "Lifts the bans in force on the reportee's platform account." }),
    ),
  },
  { additionalProperties: false },
);
export type ModerationBody = Static<typeof ModerationBody>;

export const ReporteeCountsQuery = Type.Object(
  {
    appId: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
    ...statusWindowPage('Count reports'),
  },
  { additionalProperties: false },
);
export type ReporteeCountsQuery = Static<typeof ReporteeCountsQuery>;

export const ReporteeCount = Type.Object({
  appId: Type.Integer(),
  reportee: Type.Object(
    {
      key: Type.String({ description: 'svcid, or `role:<server_code>:<role_id>` for a reportee without one.' }),
      svcid: Str(),
      role_id: Str(),
      server_code: Str(),
      role_name: Str(),
    },
    { description: 'As in the latest report.' },
  ),
  reports: Type.Integer(),
  openReports: Type.Integer(),
  reporters: Type.Integer({ description: 'Distinct reporters.' }),
  lastReportedAt: Type.String({ format: 'date-time' }),
});

export const ReporteeCounts = Type.Object({
  reportees: Type.Array(ReporteeCount, { description: 'Most reported first.' }),
  nextCursor: Nullable(Type.String()),
});

export const AuditQuery = Type.Object(
  {
    reportId: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
    moderator: Type.Optional(Text({ minLength: 1, maxLength: 100 })),
    action: Type.Optional(Type.String({ pattern: '^[a-z_]{1,32}$' })),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntry = Type.Object({
  actionId: Type.Integer(),
  action: Type.String({ description: 'set_status | view_evidence | ban_account | lift_ban' }),
  reportId: Type.Union([Type.Integer(), Type.Null()]),
  appId: Type.Union([Type.Integer(), Type.Null()]),
  moderator: Str(),
  fromStatus: Str(),
  toStatus: Str(),
  note: Str(),
  details: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  at: Type.String({ format: 'date-time' }),
});

export const AuditLog = Type.Object({
  actions: Type.Array(AuditEntry, { description: 'Newest first.' }),
  nextCursor: Nullable(Type.String()),
});
