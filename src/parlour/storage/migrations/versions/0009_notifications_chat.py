"""notifications and chat: a person's notifications, the mail outbox, e-mail settings,
table chat and mutes

Revision ID: 0009_notifications_chat
Revises: 0008_no_table_snapshot
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_notifications_chat"
down_revision = "0008_no_table_snapshot"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("read_at", WHEN, nullable=True),
        sa.UniqueConstraint("account_id", "key", name="uq_notifications_key"),
    )
    op.create_index("ix_notifications_account", "notifications", ["account_id", "id"])
    op.create_table(
        "mail_settings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("opt_in", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("unsubscribe_token", sa.String(64), nullable=False, unique=True),
    )
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("to_address", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("unsubscribe_token", sa.String(64), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_attempt_at", WHEN, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("sent_at", WHEN, nullable=True),
        sa.Column("last_error", sa.String(300), nullable=True),
        sa.UniqueConstraint("account_id", "key", name="uq_mail_outbox_key"),
    )
    op.create_index("ix_mail_outbox_due", "mail_outbox", ["status", "next_attempt_at"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_index("ix_chat_messages_table", "chat_messages", ["table_id", "id"])
    op.create_index("ix_chat_messages_account", "chat_messages", ["account_id", "created_at"])
    op.create_table(
        "chat_mutes",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("muted_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_messages_account", table_name="chat_messages")
    op.drop_index("ix_chat_messages_table", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_index("ix_mail_outbox_due", table_name="mail_outbox")
    op.drop_table("mail_outbox")
    op.drop_table("mail_settings")
    op.drop_index("ix_notifications_account", table_name="notifications")
    op.drop_table("notifications")
