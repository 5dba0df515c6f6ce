"""The graphic display's Chinese: each English phrase of the dealer's display (docs/dealers.md's glossary)
and the Traditional Chinese shown beneath it, in the regulations' own terms (魚 蝦 蟹 葫蘆 金錢 雞 of
dispatch 59/2004, 大 小 圍骰 of 57/2004, 黃袍麒 夫盧 四條 同花順 of 61/2004 and 55/2004).

'#' stands for a number (digits or '_') on both sides, in the same order. A word no phrase covers stays
English in the Chinese row (seat names S3, card names, amounts). tools/building/oledfont.py builds the firmware's
glyph module from this table: its Han characters are exactly the glyphs the firmware can show.
"""

TERMS = (
    # sic bo, fish-prawn-crab (SB-, FPC- articles: the pictures' names as dispatch 59/2004 gives them)
    ("PRESS SHAKE", "按搖骰"), ("SHAKING", "搖骰中"), ("SHAKE STOPPED", "搖骰中止"),
    ("SHAKE FIRST", "請先搖骰"), ("HANDLE", "手搖"), ("PLACE BETS", "請下注"),
    ("BELL TO CLOSE", "按鐘停止下注"), ("NO MORE BETS", "停止下注"), ("BELL FIRST", "請先按鐘"),
    ("NOT BETTING", "非下注時間"), ("DICE", "骰子"), ("SMALL", "小"), ("BIG", "大"), ("TRIPLE", "圍骰"),
    ("FISH", "魚"), ("PRAWN", "蝦"), ("GOURD", "葫蘆"), ("COIN", "金錢"), ("CRAB", "蟹"), ("COCK", "雞"),
    ("NEW DICE", "更正骰子"), ("SAME DICE AS WAS", "與原結果相同"), ("A DIE IS", "骰子為"),
    ("# DICE ENTERED", "已輸入#粒骰"), ("ENTER # DICE", "請輸入#粒骰"), ("RETYPE THE DICE", "請重新輸入骰子"),
    ("COVER UNCLIPPED", "骰盅未扣"),
    # fan-tan
    ("COVER THEN SHAKE", "蓋好後按搖骰"), ("COUNT FROM #", "由#起數"), ("COUNT # TO #", "總數#至#"),
    ("COUNT", "總數"), ("NEW COUNT", "更正總數"), ("NEW LEFT", "更正餘數"), ("LEFT IS # TO #", "餘數為#至#"),
    ("LEFT", "餘數"), ("WAS NUMBER", "原為"), ("NUMBER UNCHANGED", "號碼相同"), ("NUMBER", "開"),
    ("TYPE # TO #", "請輸入#至#"), ("ENTER THE COUNT", "請輸入總數"), ("RETYPE THE COUNT", "請重新輸入數目"),
    # every table
    ("ROUND # VOID", "第#局作廢"), ("ROUND #", "第#局"), ("ROUND IN PLAY", "本局進行中"),
    ("CONFIRM = PAID", "派彩後按確認"), ("WAS", "原為"), ("ENTER OR CLEAR", "請輸入或清除"),
    ("CONFIRM FIRST", "請先確認"), ("NO RESULT YET", "尚無結果"), ("NOTHING TO VOID", "無可作廢"),
    ("HOLD VOID # SEC", "按住作廢#秒"), ("NOT USED", "不適用"), ("SERVICE KEY ON", "維修鑰匙已開"),
    ("TIME NOT SET", "時間未設定"), ("HISTORY", "記錄"), ("NO HISTORY", "無記錄"), ("VOID", "作廢"),
    ("POWER RESTORED", "電源恢復"), ("SHAKE", "搖骰"), ("BELL", "鐘"), ("CONFIRM", "確認"),
    ("ENTER", "輸入"), ("CLEAR", "清除"), ("LOCK", "鎖定"), ("HIT", "中獎"),
    ("TILT: CALL TECH", "停機:請通知技術員"), ("FLASH DAMAGED", "記憶體損壞"), ("SETUP DAMAGED", "設定損壞"),
    ("SETUP TOO LARGE", "設定過大"),
    ("RECORD DAMAGED", "記錄損壞"), ("JOURNAL DAMAGED", "日誌損壞"), ("FIRMWARE CHANGED", "韌體已更改"),
    ("SEE SERVICE PORT", "見維修埠"), ("CALL TECHNICIAN", "請通知技術員"), ("STEP NOT SAVED", "未能儲存此步"),
    ("METERS FULL", "計數器已滿"),
    # the progressive tables (CSP-, F3-, BAC- articles: the classes as the dispatches name them)
    ("POOL", "彩池"), ("BETS", "注數"), ("LOCKED", "已鎖定"), ("HITS SENT", "已送出中獎"), ("HITS", "中獎數"),
    ("SEAT", "座位"), ("CLASS", "牌型"), ("CARDS", "張牌"), ("COMMUNITY", "公共牌"), ("PAYING", "派彩中"),
    ("PAY", "派彩"), ("NO HIT", "無中獎"), ("NO BETS TO LOCK", "無注可鎖"), ("ALREADY LOCKED", "已經鎖定"),
    ("LOCK FIRST", "請先鎖定"), ("FINISH THE HIT", "請完成中獎輸入"), ("NOTHING TO ENTER", "無輸入"),
    ("PRESS HIT FIRST", "請先按中獎"), ("KEYS NOT IN USE", "按鍵不適用"), ("DIGITS MAX", "位數上限"),
    ("TYPE THE", "請輸入"), ("NO BET SEAT #", "座位#無注"), ("CLASS # NO AWARD", "牌型#無獎"),
    ("NO CLASS", "無此牌型"), ("NO LOCKED ROUND", "未鎖定"), ("CARD #: # DIGITS", "第#張牌:#位數字"),
    ("CARD # IS BAD", "第#張牌無效"), ("CARD", "牌"), ("TWICE", "兩次"), ("NEED", "需"),
    ("HAND: NO AWARD", "此牌型無獎"), ("NO WINNING HAND", "牌不成獎"), ("HAND", "牌為"),
    ("RETYPE HIT ENTRY", "請重新輸入中獎"), ("HIT IS BY SEAT", "按座位輸入"), ("BY CARDS", "由牌判定"),
    ("COUP", "整局牌"), ("PLAYER", "閒"), ("BANKER", "莊"), ("3RD CARD", "補牌"),
    ("ENTER THE COUP", "請輸入整局牌"), ("TOP AWARD", "最高彩金"), ("SUPERVISOR KEY", "主管鑰匙"),
    ("SUPERVISOR CODE", "主管密碼"), ("TURN THE KEY", "請轉鑰匙"), ("TURN KEY", "轉鑰匙"),
    ("WRONG CODE", "密碼錯誤"), ("DEALING ERROR", "發牌錯誤"), ("SHUFFLER FAULT", "洗牌機故障"),
    ("DEALING BREACH", "違反發牌程序"), ("DEALER CARD UP", "莊家牌外露"), ("PLAYER CARDS UP", "閒家多張牌外露"),
    ("MISDEAL", "發牌錯誤"), ("LINK DOWN", "連線中斷"), ("NO JACKPOT BETS", "暫停累積獎金投注"),
    ("LINK BUSY", "連線繁忙"), ("JACKPOT PENDING", "頭獎待派"), ("WAIT SERVER", "等候伺服器"),
    ("SERVER REFUSED", "伺服器拒絕"), ("SERVER SETTLES", "由伺服器結算"),
    # the classes (hitentry.label and short)
    ("FLUSH", "同花"), ("FULL HOUSE", "夫盧"), ("FOUR OF A KIND", "四條"), ("4 OF A KIND", "四條"),
    ("STRAIGHT FLUSH", "同花順"), ("STR FLUSH", "同花順"), ("ROYAL FLUSH", "黃袍麒"), ("ONE PAIR", "單對子"),
    ("THREE OF A KIND", "三條"), ("3 OF A KIND", "三條"), ("TWO PAIRS", "雙對子"), ("PARADISE STR", "天堂順"),
    ("ROYAL", "黃袍麒"), ("THREE", "三張同點"), ("FOUR", "四張同點"), ("TWO THREES", "雙三張同點"),
    ("FIVE OF A KIND", "五張同點"), ("5 OF A KIND", "五張同點"), ("SIX OF A KIND", "六張同點"),
    ("6 OF A KIND", "六張同點"), ("SIX SAME COLOUR", "六張同色同點"), ("6 SAME COLOUR", "六張同色同點"),
)
