// @ts-check
// i18n.js - the page's texts and the built-in pre-order check codes (section 7) in English and Simplified Chinese.

export const LANGS = [
  ['en', 'English'],
  ['zh-CN', '简体中文'],
];

export const TEXT = {
  en: {
    title: 'Top up',
    sandboxBanner: 'Sandbox: test payments, no money is taken.',
    loading: 'Loading…',
    redirecting: 'Taking you to the payment page…',
    language: 'Language',
    linkRefused: 'This payment link was already used or has expired. Open the payment again from the game.',
    blocked_role_query_failed:
      'The game could not confirm your role, so payment is not possible. Close this page and try again from the game.',
    blocked_role_not_owned: 'This role does not belong to your account, so payment is not possible.',
    role: 'Role',
    level: 'Level',
    server: 'Server',
    serverId: 'Server id',
    roleId: 'Role id',
    checkRole: 'Confirm role',
    changeRole: 'Change role',
    login: 'Log in',
    loginProvider: 'Login method',
    credential: 'Credential',
    noLogin: 'No login method is available on this page.',
    pickServer: 'Choose a server',
    showRoles: 'Show my roles',
    pickRole: 'Choose the role that receives the items',
    noRole: 'You have no role on this server.',
    products: 'Products',
    quantity: 'Quantity',
    total: 'Total',
    region: 'Region',
    regionLocked: 'Region (registration)',
    pay: 'Pay',
    paying: 'Please wait…',
    nothingChosen: 'Choose at least one product.',
    payHint: 'Set the quantity of at least one product to pay.',
    paymentMethod: 'Payment method',
    noMethod: 'No payment method is available for this game right now.',
    method_card: 'Card',
    method_paypal: 'PayPal',
    method_alipay: 'Alipay',
    method_wechat_pay: 'WeChat Pay',
    method_sandbox: 'Sandbox (test)',
    qrHint: 'Scan the code with WeChat and pay there. This page shows the result once WeChat Pay confirms it.',
    qrAlt: 'Payment QR code',
    pickRegion: 'Choose your region',
    refusedNoReason: 'The game refused this order.',
    sandboxTitle: 'Sandbox payment',
    sandboxHint: 'This is the sandbox channel: no money moves.',
    sandboxPay: 'Pay',
    sandboxFail: 'Fail',
    sandboxCancel: 'Cancel',
    result: 'Order',
    trxNo: 'Transaction',
    amount: 'Amount',
    status_0: 'Paid. The items are on their way to your role.',
    status_1: 'Created…',
    status_2: 'Waiting for the payment…',
    status_3: 'The payment failed.',
    status_4: 'The payment was cancelled.',
    again: 'Buy more',
    noProducts: 'Nothing is on sale right now.',
    error: 'Something went wrong. Please retry.',
    err_40410: 'Enter a correct role id.',
    err_40109: 'Your session has expired. Open this page again.',
    err_42900: 'Too many attempts. Wait a minute and retry.',
    err_50201: 'The game server cannot be reached. Retry later.',
    err_50202: 'The game could not confirm the role. Retry later.',
    err_40310: 'This role does not belong to your account.',
    err_40107: 'The login failed.',
    err_40050: 'This payment method is not available. Choose another.',
    err_50250: 'The payment provider cannot be reached. Retry later.',
  },
  'zh-CN': {
    title: '充值',
    sandboxBanner: '沙箱：测试支付，不会扣款。',
    loading: '加载中…',
    redirecting: '正在前往支付页面…',
    language: '语言',
    linkRefused: '此支付链接已使用或已过期。请从游戏中重新打开支付。',
    blocked_role_query_failed: '游戏无法确认您的角色，无法支付。请关闭此页面并从游戏中重试。',
    blocked_role_not_owned: '此角色不属于您的账号，无法支付。',
    role: '角色',
    level: '等级',
    server: '服务器',
    serverId: '服务器 ID',
    roleId: '角色 ID',
    checkRole: '确认角色',
    changeRole: '更换角色',
    login: '登录',
    loginProvider: '登录方式',
    credential: '凭证',
    noLogin: '此页面暂无可用的登录方式。',
    pickServer: '选择服务器',
    showRoles: '查看我的角色',
    pickRole: '选择接收道具的角色',
    noRole: '您在此服务器上没有角色。',
    products: '商品',
    quantity: '数量',
    total: '合计',
    region: '地区',
    regionLocked: '地区（注册地）',
    pay: '支付',
    paying: '请稍候…',
    nothingChosen: '请至少选择一件商品。',
    payHint: '请至少为一件商品设置数量后再支付。',
    paymentMethod: '支付方式',
    noMethod: '此游戏目前没有可用的支付方式。',
    method_card: '银行卡',
    method_paypal: 'PayPal',
    method_alipay: '支付宝',
    method_wechat_pay: '微信支付',
    method_sandbox: '沙盒（测试）',
    qrHint: '请使用微信扫一扫，在微信中完成支付。微信支付确认后，本页会显示结果。',
    qrAlt: '支付二维码',
    pickRegion: '选择您的地区',
    refusedNoReason: '游戏拒绝了此订单。',
    sandboxTitle: '沙盒支付',
    sandboxHint: '这是沙盒渠道：不会产生真实扣款。',
    sandboxPay: '支付',
    sandboxFail: '失败',
    sandboxCancel: '取消',
    result: '订单',
    trxNo: '交易号',
    amount: '金额',
    status_0: '支付成功，道具正在发往您的角色。',
    status_1: '已创建…',
    status_2: '等待支付…',
    status_3: '支付失败。',
    status_4: '支付已取消。',
    again: '继续购买',
    noProducts: '暂无在售商品。',
    error: '出错了，请重试。',
    err_40410: '请输入正确的角色 ID。',
    err_40109: '会话已过期，请重新打开此页面。',
    err_42900: '尝试次数过多，请一分钟后重试。',
    err_50201: '无法连接游戏服务器，请稍后重试。',
    err_50202: '游戏无法确认角色，请稍后重试。',
    err_40310: '此角色不属于您的账号。',
    err_40107: '登录失败。',
    err_40050: '此支付方式不可用，请选择其他方式。',
    err_50250: '无法连接支付服务商，请稍后重试。',
  },
};

/** Section 7: the built-in pre-order check codes. */
export const PRECHECK = {
  en: {
    101: 'Enter a correct role id.',
    102: 'Server error, please retry later.',
    103: 'The product does not exist.',
    104: 'Order failed: please stay online in the game.',
    105: 'Order failed: the purchase limit for this product has been reached.',
    106: 'A transaction is in progress; please retry in a few minutes.',
    107: 'Server error, please retry later.',
    112: 'Your role does not meet the purchase conditions.',
    113: 'A transaction is in progress; please retry in 1 minute.',
    114: 'A transaction is in progress; please retry in 2 minutes.',
    115: 'A transaction is in progress; please retry in 3 minutes.',
  },
  'zh-CN': {
    101: '请输入正确的角色 ID。',
    102: '服务器错误，请稍后重试。',
    103: '商品不存在。',
    104: '下单失败，请保持游戏在线。',
    105: '下单失败，该商品已达到购买上限。',
    106: '有交易正在进行中，请几分钟后重试。',
    107: '服务器错误，请稍后重试。',
    112: '角色不满足购买条件。',
    113: '有交易正在进行中，请 1 分钟后重试。',
    114: '有交易正在进行中，请 2 分钟后重试。',
    115: '有交易正在进行中，请 3 分钟后重试。',
  },
};

export const normLang = (lang) =>
  String(lang || '')
    .toLowerCase()
    .startsWith('zh')
    ? 'zh-CN'
    : 'en';

/** The page text `key` in `lang`. */
export const t = (lang, key) => TEXT[normLang(lang)][key] ?? TEXT.en[key] ?? key;

/** The text of a built-in pre-order check code, or undefined. */
export const precheckText = (lang, code) => PRECHECK[normLang(lang)][code];

/** What to show for an API error: a translated text for the codes the page knows, else the service's msg. */
export function errorText(lang, err) {
  const known = TEXT[normLang(lang)][`err_${err.code}`];
  if (known) return known;
  return err.msg && err.code !== 0 ? err.msg : t(lang, 'error');
}

/**
 * Section 7 / 4.10: a block's text in `lang`: a built-in code translated here, a custom code the game's translation
 * for `lang` (the service answers one per page language), else its msg. Rendered from the block's code at every
 * render, so it follows the language switch.
 */
export function blockText(lang, data) {
  if (!data || data.code === null || data.code === undefined) return t(lang, 'refusedNoReason');
  return precheckText(lang, data.code) ?? data.texts?.[normLang(lang)] ?? data.msg ?? t(lang, 'refusedNoReason');
}

/** An amount in the player's locale currency format (`text`: the service's exact decimal text, e.g. "19.88"). */
export function money(lang, text, currency) {
  try {
    return new Intl.NumberFormat(normLang(lang), { style: 'currency', currency }).format(text);
  } catch {
    return `${text} ${currency}`;
  }
}

/** A region code's name in `lang` (Intl.DisplayNames); the code itself when the browser knows no name for it. */
export function regionName(lang, code) {
  try {
    const name = new Intl.DisplayNames([normLang(lang)], { type: 'region' }).of(code);
    return name && name !== code ? name : code;
  } catch {
    return code;
  }
}
