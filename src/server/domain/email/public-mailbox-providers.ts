// spec: Email domains — public mailbox providers are rejected as sending domains (a business sends
// from a domain it owns, and a provider's DMARC policy would make mail "from" it fail anyway).
//
// This is DATA, not code: a curated list of consumer mailbox domains, compiled for this service from
// the providers' own sign-up domains (Google, Microsoft's Outlook/Hotmail/Live/MSN country domains,
// Yahoo's country domains, AOL, Apple, Proton, United Internet's GMX/web.de/mail.com family, Mail.ru,
// Yandex, Zoho, Tuta, Fastmail, the Chinese, Korean and Japanese portals) and the mailbox domains large
// ISPs hand their subscribers (US, UK, Canada, Australia, Europe, Latin America), in the spirit of the
// public "free email provider" lists kept by CRM and form vendors. Lower-case, no trailing dot, one
// registrable domain per entry; a subdomain of an entry is rejected too (domain-rules.ts). Add entries
// here; do not add logic.

export const PUBLIC_MAILBOX_PROVIDERS: readonly string[] = [
  // Google
  'gmail.com', 'googlemail.com',
  // Microsoft (Outlook.com, Hotmail, Live, MSN and their country domains)
  'outlook.com', 'outlook.at', 'outlook.be', 'outlook.cl', 'outlook.co.id', 'outlook.co.il',
  'outlook.co.nz', 'outlook.co.th', 'outlook.com.ar', 'outlook.com.au', 'outlook.com.br',
  'outlook.com.gr', 'outlook.com.tr', 'outlook.com.vn', 'outlook.cz', 'outlook.de', 'outlook.dk',
  'outlook.es', 'outlook.fr', 'outlook.hu', 'outlook.ie', 'outlook.in', 'outlook.it', 'outlook.jp',
  'outlook.kr', 'outlook.lv', 'outlook.my', 'outlook.ph', 'outlook.pt', 'outlook.sa', 'outlook.sg',
  'outlook.sk', 'hotmail.com', 'hotmail.at', 'hotmail.be', 'hotmail.ca', 'hotmail.ch', 'hotmail.cl',
  'hotmail.co.id', 'hotmail.co.il', 'hotmail.co.jp', 'hotmail.co.kr', 'hotmail.co.nz', 'hotmail.co.th',
  'hotmail.co.uk', 'hotmail.co.za', 'hotmail.com.ar', 'hotmail.com.au', 'hotmail.com.br',
  'hotmail.com.hk', 'hotmail.com.tr', 'hotmail.com.tw', 'hotmail.com.vn', 'hotmail.cz', 'hotmail.de',
  'hotmail.dk', 'hotmail.es', 'hotmail.fi', 'hotmail.fr', 'hotmail.gr', 'hotmail.hu', 'hotmail.ie',
  'hotmail.it', 'hotmail.lt', 'hotmail.lu', 'hotmail.lv', 'hotmail.my', 'hotmail.nl', 'hotmail.no',
  'hotmail.ph', 'hotmail.pt', 'hotmail.rs', 'hotmail.se', 'hotmail.sg', 'hotmail.sk', 'live.com',
  'live.at', 'live.be', 'live.ca', 'live.cl', 'live.cn', 'live.co.kr', 'live.co.uk', 'live.co.za',
  'live.com.ar', 'live.com.au', 'live.com.mx', 'live.com.my', 'live.com.pt', 'live.com.sg', 'live.de',
  'live.dk', 'live.fi', 'live.fr', 'live.hk', 'live.ie', 'live.in', 'live.it', 'live.jp', 'live.nl',
  'live.no', 'live.ru', 'live.se', 'msn.com', 'passport.com', 'windowslive.com',
  // Yahoo and its country domains
  'yahoo.com', 'yahoo.at', 'yahoo.be', 'yahoo.ca', 'yahoo.ch', 'yahoo.cl', 'yahoo.cn', 'yahoo.co.id',
  'yahoo.co.il', 'yahoo.co.in', 'yahoo.co.jp', 'yahoo.co.kr', 'yahoo.co.nz', 'yahoo.co.th',
  'yahoo.co.uk', 'yahoo.co.za', 'yahoo.com.ar', 'yahoo.com.au', 'yahoo.com.br', 'yahoo.com.cn',
  'yahoo.com.co', 'yahoo.com.hk', 'yahoo.com.mx', 'yahoo.com.my', 'yahoo.com.pe', 'yahoo.com.ph',
  'yahoo.com.sg', 'yahoo.com.tr', 'yahoo.com.tw', 'yahoo.com.ve', 'yahoo.com.vn', 'yahoo.de',
  'yahoo.dk', 'yahoo.es', 'yahoo.fi', 'yahoo.fr', 'yahoo.gr', 'yahoo.hu', 'yahoo.ie', 'yahoo.in',
  'yahoo.it', 'yahoo.nl', 'yahoo.no', 'yahoo.pl', 'yahoo.pt', 'yahoo.ro', 'yahoo.se', 'ymail.com',
  'rocketmail.com', 'yahoomail.com',
  // AOL / Verizon Media
  'aol.com', 'aol.co.uk', 'aol.de', 'aol.fr', 'aol.it', 'aim.com', 'love.com', 'games.com', 'wow.com',
  'ygm.com', 'verizon.net',
  // Apple
  'icloud.com', 'me.com', 'mac.com',
  // Proton
  'proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me',
  // GMX / web.de / 1&1 (United Internet)
  'gmx.com', 'gmx.net', 'gmx.de', 'gmx.at', 'gmx.ch', 'gmx.fr', 'gmx.co.uk', 'gmx.es', 'gmx.it',
  'gmx.us', 'gmx.info', 'gmx.biz', 'web.de', 'email.de', 'online.de', '1und1.de', 'mail.com',
  'email.com', 'usa.com', 'consultant.com', 'engineer.com', 'post.com', 'europe.com', 'asia.com',
  'dr.com', 'myself.com', 'cheerful.com', 'writeme.com',
  // Mail.ru group
  'mail.ru', 'inbox.ru', 'list.ru', 'bk.ru', 'internet.ru', 'mail.ua',
  // Yandex
  'yandex.ru', 'yandex.com', 'yandex.ua', 'yandex.by', 'yandex.kz', 'yandex.com.tr', 'ya.ru',
  'narod.ru',
  // Rambler
  'rambler.ru', 'lenta.ru', 'autorambler.ru', 'myrambler.ru', 'ro.ru',
  // Zoho
  'zoho.com', 'zohomail.com', 'zohomail.eu', 'zohomail.in',
  // Tutanota / Tuta
  'tutanota.com', 'tutanota.de', 'tutamail.com', 'tuta.io', 'tuta.com', 'keemail.me',
  // Fastmail
  'fastmail.com', 'fastmail.fm', 'fastmail.net', 'fastmail.org', 'fastmail.to', 'fastmail.us',
  'fastmail.cn', 'fastmail.in', 'fastmail.jp', 'messagingengine.com',
  // Other independent mailbox providers
  'hushmail.com', 'hush.com', 'hush.ai', 'runbox.com', 'posteo.de', 'posteo.net', 'mailbox.org',
  'mailfence.com', 'disroot.org', 'riseup.net', 'countermail.com', 'startmail.com', 'kolabnow.com',
  'lavabit.com', 'ctemplar.com',
  // China: Tencent, NetEase, Sina, Sohu, Aliyun
  'qq.com', 'vip.qq.com', 'foxmail.com', '163.com', '126.com', 'yeah.net', 'vip.163.com',
  'vip.126.com', '188.com', 'netease.com', 'sina.com', 'sina.cn', 'sina.com.cn', 'vip.sina.com',
  'sohu.com', 'vip.sohu.com', 'aliyun.com', '139.com', '189.cn', 'wo.cn', 'tom.com', '21cn.com',
  // Korea
  'naver.com', 'daum.net', 'hanmail.net', 'kakao.com', 'nate.com', 'korea.com',
  // Japan
  'yahoo.ne.jp', 'docomo.ne.jp', 'ezweb.ne.jp', 'au.com', 'softbank.ne.jp', 'i.softbank.jp',
  'nifty.com', 'biglobe.ne.jp', 'ocn.ne.jp', 'so-net.ne.jp',
  // India
  'rediffmail.com', 'rediff.com', 'indiatimes.com', 'sify.com',
  // Italy
  'libero.it', 'virgilio.it', 'tiscali.it', 'alice.it', 'tim.it', 'tin.it', 'email.it', 'inwind.it',
  'iol.it', 'blu.it', 'giallo.it', 'fastwebnet.it',
  // France
  'orange.fr', 'wanadoo.fr', 'free.fr', 'sfr.fr', 'neuf.fr', 'laposte.net', 'bbox.fr',
  'numericable.fr', 'club-internet.fr', 'aliceadsl.fr', 'voila.fr',
  // Germany / Austria / Switzerland
  't-online.de', 'freenet.de', 'arcor.de', 'vodafone.de', 'bluewin.ch', 'hispeed.ch', 'sunrise.ch',
  'aon.at', 'chello.at', 'a1.net',
  // Spain / Portugal
  'telefonica.net', 'movistar.es', 'terra.es', 'ono.com', 'sapo.pt', 'clix.pt', 'netcabo.pt',
  // Benelux / Nordics
  'ziggo.nl', 'kpnmail.nl', 'planet.nl', 'home.nl', 'hetnet.nl', 'xs4all.nl', 'casema.nl',
  'telenet.be', 'skynet.be', 'proximus.be', 'scarlet.be', 'telia.com', 'comhem.se', 'bredband.net',
  'online.no', 'telenor.no', 'tdcadsl.dk', 'mail.dk', 'jubii.dk', 'elisanet.fi', 'luukku.com',
  'suomi24.fi',
  // Central and Eastern Europe
  'seznam.cz', 'email.cz', 'post.cz', 'centrum.cz', 'atlas.cz', 'volny.cz', 'centrum.sk', 'azet.sk',
  'zoznam.sk', 'interia.pl', 'interia.eu', 'poczta.fm', 'wp.pl', 'o2.pl', 'tlen.pl', 'onet.pl',
  'onet.eu', 'op.pl', 'vp.pl', 'gazeta.pl', 'go2.pl', 'freemail.hu', 'citromail.hu', 'indamail.hu',
  'abv.bg', 'mail.bg', 'dir.bg', 'ukr.net', 'i.ua', 'meta.ua', 'bigmir.net', 'tut.by', 'inbox.lv',
  'inbox.lt', 'mail.ee',
  // United States ISPs
  'comcast.net', 'xfinity.com', 'att.net', 'sbcglobal.net', 'bellsouth.net', 'pacbell.net',
  'ameritech.net', 'flash.net', 'nvbell.net', 'prodigy.net', 'swbell.net', 'snet.net', 'wans.net',
  'cox.net', 'charter.net', 'spectrum.net', 'twc.com', 'rr.com', 'roadrunner.com', 'optonline.net',
  'optimum.net', 'frontier.com', 'frontiernet.net', 'centurylink.net', 'embarqmail.com', 'q.com',
  'windstream.net', 'earthlink.net', 'mindspring.com', 'juno.com', 'netzero.net', 'netzero.com',
  'excite.com', 'lycos.com', 'mediacombb.net', 'suddenlink.net', 'wowway.com', 'rcn.com', 'hughes.net',
  // United Kingdom and Ireland
  'btinternet.com', 'btopenworld.com', 'btconnect.com', 'sky.com', 'virginmedia.com',
  'blueyonder.co.uk', 'ntlworld.com', 'talktalk.net', 'tiscali.co.uk', 'plus.com', 'zen.co.uk',
  'eircom.net',
  // Canada
  'shaw.ca', 'rogers.com', 'sympatico.ca', 'bell.net', 'telus.net', 'videotron.ca', 'cogeco.ca',
  'eastlink.ca',
  // Australia and New Zealand
  'bigpond.com', 'bigpond.net.au', 'telstra.com', 'optusnet.com.au', 'iinet.net.au', 'tpg.com.au',
  'internode.on.net', 'westnet.com.au', 'adam.com.au', 'dodo.com.au', 'xtra.co.nz', 'clear.net.nz',
  'slingshot.co.nz', 'orcon.net.nz',
  // Latin America
  'uol.com.br', 'bol.com.br', 'terra.com.br', 'ig.com.br', 'globo.com', 'globomail.com', 'r7.com',
  'oi.com.br', 'prodigy.net.mx', 'terra.com.mx', 'speedy.com.ar', 'fibertel.com.ar',
  // Middle East, Africa and Asia-Pacific misc.
  'walla.co.il', 'netvision.net.il', 'bezeqint.net', 'mweb.co.za', 'telkomsa.net', 'vodamail.co.za',
  'webmail.co.za', 'singnet.com.sg', 'pacific.net.sg', 'hinet.net', 'pchome.com.tw', 'netvigator.com',
  'streamyx.com',
  // Other webmail brands
  'gawab.com', 'inbox.com', 'mail2world.com', 'mynet.com',
];
