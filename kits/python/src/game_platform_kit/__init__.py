"""Game-server kit for the game platform (interface spec sections 2.4-2.6, 4.7-4.10, 5.1-5.3)."""
from .verify import (
    CallbackVerifier,
    CallbackVerificationError,
    MemoryNonceStore,
    NonceStore,
    VerifiedCall,
    callback_sign_base,
    load_public_keys_dir,
)
from .md5 import canonical_params, md5_sign
from .mac import mac_sign_base, mac_sign, mac_authorization
from .bodies import (
    BodyError,
    Notification,
    PreOrderCheck,
    Product,
    Attach,
    TrxType,
    PreOrderCode,
    accept_notification,
    reject_notification,
    pre_order_allow,
    role_answer,
    role_list_answer,
    pre_order_reject,
)

__all__ = [name for name in dir() if not name.startswith("_")]
