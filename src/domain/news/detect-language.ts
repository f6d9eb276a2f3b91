/**
 * A compact language detector for news headlines ("headline" or "headline. summary"), for the 26 languages the
 * news API names. No dependencies and no model file: about 14 KiB min+gzip of hand-written tables and rules.
 * Returns an ISO 639-1 code, or null when unsure: a wrong code hides an article from a language filter, while
 * null keeps it under every filter, so every rule below prefers null to a guess.
 *
 * 1. Script first. Most non-Latin languages here own their script (Hangul, kana, Greek, Hebrew), so counting
 *    letters per Unicode script settles them without statistics, even on short texts (4+ characters).
 *    Shared scripts get small rules: Han without kana is Chinese; Arabic script is Arabic unless Persian/Urdu
 *    letters show; Devanagari is Hindi only with a Hindi postposition and no Marathi/Nepali word; Cyrillic is
 *    Ukrainian with і/ї/є/ґ, Russian with ы/э/ё, or (long enough, no і) with a Russian ending such as -ого/-ться;
 *    Serbian, Macedonian, Belarusian, Kazakh letters or a Bulgarian-looking text give null.
 * 2. Latin script (12+ characters): points from
 *    (a) a table of frequent words per language - function words plus the vocabulary of financial headlines
 *        (verbs like "rises"/"steigt"/"sube", nouns like "shares"/"Aktie"), since real headlines are telegraphic
 *        and full of proper nouns; a word listed for k languages gives each 1/k;
 *    (b) elisions (l', dell', qu') and Turkish suffixes after an apostrophe (TÜİK'e, 50'de);
 *    (c) letters with diacritics (ß, ø, ł, ő, ș, ğ, ã, ñ...), split the same way; word endings (-ção, -zione,
 *        -ung) and letter sequences (Dutch ij, English th, German tz) for words not in the table;
 *    (d) penalties: a lowercase word with a letter a language does not write (a French "à" rules out English);
 *        two accents in one word rule out Spanish, Portuguese, Catalan and Italian;
 *    (e) vetoes for close relatives outside the 26 (Slovak/Slovenian/Croatian vs Czech, Afrikaans vs Dutch,
 *        Galician vs Portuguese/Spanish; Indonesian, Tagalog, Basque, Swahili give null).
 *    Capitalised words inside a sentence are mostly names ("Société Générale" in an English headline), so they
 *    count for less, except as German nouns. Tickers and acronyms (ASML, BCE) are skipped.
 * 3. A margin rule: the best language needs MIN_EVIDENCE points and a lead of MIN_LEAD over the runner-up,
 *    else null. Lowering both (1.0 / 0.5) answers more often, at the price of an occasional wrong code.
 */

// Frequent words per language (lowercase, space-separated). Shared words are fine: the weight is split.
const WORDS: Record<string, string> = {
  en: "the of and to in on for at by with from as after before over under amid into onto than about against ahead since while during until up down off out new its it is are was were be been being has have had will would could should may might can cannot not no nor more most less least this that these those their his her they them we you our us he she who whom whose which what when where why how there here then now again back also just still only even much many such very too so if but or because although though whether unless each every both either any some other another same own first second third fourth last next previous former latest early late year years month months week weeks day days today quarter quarterly annual half says said say plans plan planned sees see seen expects expected expect warns warned warning cuts cut raises raised raise rises rose rise rising falls fell fall falling jumps jumped jump slips slipped slip slides slid slide climbs climbed climb surges surged surge soars soared tumbles tumbled tumble drops dropped drop gains gained gain hits hit tops topped beats beat misses missed posts posted reports reported report lifts lifted lift boosts boosted boost trims trimmed trim weighs weighed weigh eyes agrees agreed agree buys bought buy sells sold sell names named wins won win loses lost lose extends extended signals signaled signalled hints hinted holds held hold keeps kept keep lower lowers lowered higher high low highs lows shares share stock stocks profit profits earnings revenue revenues sales growth outlook forecast forecasts guidance rates rate yields yield bonds bond investors investor deal deals jobs job billion million trillion bn prices price oil gold markets market strong weak weaker stronger rally rallies slump fears fear hopes hope shareholders buyback chief executive executives results demand supply trade trading tariffs tariff unemployment economy economic consumer consumers spending housing home homes retail payrolls jobless claims treasury treasuries steady point points percent stake sale unit firm firms company companies maker makers rival rivals giant lender lenders set sets despite target targets worst best biggest largest row straight fresh surprise surprises expectations estimates analysts analyst talks output production drug cancer small caps close closes closed opens opened open valuable listed like further shows show showed exports imports unexpectedly contract contracts deliveries short street fees spot inflows outflows accelerate accelerates slows slowed slowing sharply sharp around above below between among across through toward without within big large huge major key good bad better worse record hike hikes hiking cutting raising hiring layoffs lay workers staff pay wages board chairman investment banking bankers traders trader fund funds hedge debt loan loans credit losses loss charge charges bid bids offer offers takeover merger acquisition acquire acquires buying selling consider considers considering closing plants sterling pound currency currencies stimulus policy policymakers banks inflation an war fast one two three dividend world orders recalls recall shed roles role overhaul sweeping faulty non completes complete completed unveils unveil unveiled tools tool customers customer division divisions core faces face lawsuit patent infringement snags delay delays product launch chain",
  fr: "le la les des du de un une et en au aux à pour par sur dans avec sans sous son sa ses leur leurs qui que dont est sont ont été être avoir avait fait faire plus moins après avant face malgré selon depuis vers chez contre entre ce cet cette ces il elle ils elles nous vous ne pas se sera seront va vont doit peut veut pourrait devrait nouveau nouvelle nouvel nouveaux nouvelles hausse baisse recul repli bourse bénéfice bénéfices chiffre affaires résultat résultats ventes croissance taux prix pétrole milliards milliard millions action actions actionnaires dividende rachat rachats trimestre semestre année an ans mois semaine semaines jour jours prévisions objectifs objectif perte pertes emploi emplois chômage marché marchés banque banques entreprise entreprises société sociétés dette déficit gouvernement état économie recule reculent grimpe grimpent chute chutent bondit bondissent envole relève abaisse maintient annonce lance cède rachète dépasse affiche investit prévoit finalise signe remporte termine terminent ouvre clôture séance pourquoi comment encore toujours très aussi ainsi mais où ou premier première deuxième troisième quatrième grâce attentes niveau haut bas fin plusieurs grands grandes grand grande petites petits petit petite euros contrat accord usine voitures déjà près environ lors cours tandis puis alors donc car si tout tous toute toutes autre autres même mêmes chaque quelques aucun aucune serait était étaient fois hier aujourd demain dernier dernière derniers prochain prochaine salariés patron directeur général dirigeant président ministre investisseurs analystes consommateurs ménages emprunt crédit inflation monnaie devise rebond envolée plongeon dégringolade redressement acquiert fusion rapprochement cession vente achat offre opa salaires grève plan social suppression suppressions postes usines livraisons commandes carnet demande record stocks",
  de: "der die das den dem des ein eine einen einem einer eines und oder mit von vom zu zum zur im am an auf aus bei beim nach für über unter vor gegen durch um ohne seit bis ist sind war waren wird werden wurde wurden hat haben hatte hatten sich nicht auch noch mehr als wie wegen trotz dank erneut erstmals neue neuen neues neuer weiter weitere weiteren wieder jetzt schon bereits aktie aktien anleger gewinn gewinne umsatz prognose quartal jahr jahres jahren halbjahr prozent milliarden milliarde millionen zinsen zins leitzins börse konzern unternehmen markt märkte steigt sinkt fällt steigen sinken fallen hebt senkt erhöht kappt streicht verkauft kauft übernimmt übernahme meldet rechnet erwartet erwartungen plant bleibt schließt legt verliert gewinnt bricht verdient profitiert bestätigt übertrifft verfehlt klettert springt investiert steigert wächst einigen einigt deutlich leicht knapp stark starkem starken starker schwach schwache schwacher schwachen schwachem hoher hohe hohen höher höheren niedriger niedrigeren deutsche deutschen deutscher dieses diesem diesen dieser diese laufende laufenden zweiten dritten ersten vierten erste zweite dritte rund mrd mio druck rekord rekordhoch allzeithoch geschäft ergebnis auftragseingang stellenabbau dividende ausblick anteil beteiligung kunden nachfrage ab aber alle allem allen aller alles also andere anderen bald bisher damit dann darauf dass davon dazu denn dennoch deren derzeit doch dort drei eigene eigenen einige erst etwa etwas fast früher ganz gegenüber gibt gut hier hoch ihm ihn ihr ihre ihrem ihren ihrer immer insgesamt jedoch kaum kein keine keinen können kann könnte künftig lange laut letzten mal man mehrere möglich muss müssen nachdem neben nichts nun nur ob sehr sein seine seinen seiner seinem sie so sogar soll sollen sollte sowie statt uns viel viele vielen vorerst während was weil wenig wenn wer will wir wo zudem zuletzt zwar zwei zwischen aktionäre anleihen anleihe arbeitslosigkeit arbeitsmarkt banken bilanz börsengang einbruch einnahmen entlassungen finanzchef geld geldpolitik gewinnwarnung handel hersteller konjunktur kosten kurs kurse kursziel lage lieferungen marge nettogewinn notenbank preise quartalszahlen rendite rezession rückgang schulden staatsanleihen stellen steuer tarif umsätze verlust verluste wachstum währung wirtschaft zahlen zentralbank zölle rutscht stürzt erholt erholen nimmt kürzt warnt prüft erwägt berichtet zahlt schüttet kündigt droht fordert setzt hält geht kommt macht sieht stellt zieht inflation in erreicht erreichen liegt liegen zeigt zeigen bringt bringen gilt gelten fehlt braucht bekommt beginnt endet neu alten alte großen große großer kleine kleinen ganze ganzen mehrheit hälfte viertel woche wochen monat monaten tag tagen heute gestern morgen bislang zuvor danach später seitdem wohl eher",
  es: "el la los las lo de del un una unos unas y e o u en por para con sin sobre tras ante hasta desde entre según durante contra hacia su sus se que al es son ha han había fue fueron será serán está están estaba sea más menos muy también pero cuando como qué cómo porque aunque si ya aún todavía sólo solo beneficio beneficios ventas crecimiento tipos interés precio precios petróleo bolsa acciones accionistas millones mil euros dólares año años mes meses semana día días trimestre semestre récord gobierno empresa empresas deuda paro empleo empleos inflación subida bajada caída cae caen sube suben gana ganan pierde pierden eleva recorta rebaja aprueba compra vende lanza anuncia supera cierra abre alcanza dispara desploma mantiene prevé frente nuevo nueva nuevos nuevas primer primera primeros segundo segunda tercer tercera mayor menor mayores menores máximos mínimos máximo mínimo hoy esta este estos estas ese esa otro otra otros otras todo toda todos todas cada gracias oferta banca entidad compañía consejero delegado previsión previsiones inversores cierre subidas bajadas frena frenan registra informe resultados facturación ingresos pérdidas cuenta cuentas dividendo recompra plantilla trabajadores despidos sueldos salarios hogares consumo vivienda viviendas alquiler hipotecas banco reserva federal bancos mercado mercados economía económico económica presidente ministro ministra ministerio hacienda tesoro bono bonos prima riesgo fusión adquisición venta opa expansión plan planes objetivo objetivos contrato contratos pedido pedidos sido tiene tienen puede pueden debe deben hace hacen vuelve vuelven no",
  it: "il lo la i gli le di del dello della dei degli delle da dal dallo dalla dai dagli dalle in nel nello nella nei negli nelle su sul sullo sulla sui sugli sulle al allo alla ai agli alle con per tra fra un uno una è e ed non che chi più meno dopo anche ma come sono ha hanno aveva avere essere stato stata sarà saranno verso utile utili ricavi vendite crescita tasso prezzo prezzi petrolio borsa azioni azionisti titolo titoli miliardi milioni mila anno anni mese mesi settimana giorno giorni trimestre semestre governo banca banche debito disoccupazione inflazione rialzo ribasso calo chiude chiudono apre aprono sale salgono scende scendono taglia tagliano alza alzano cede acquista vende lancia annuncia supera conferma punta crolla vola affonda torna nuovo nuova nuovi nuove primo prima primi secondo seconda terzo terza oltre grazie stime previsioni attese mercati mercato gruppo quota offerta aumento capitale consiglio amministratore delegato perché cento ancora solo quasi sotto sopra massimi minimi record questo questa questi queste quello quella tutto tutti tutte ogni già oggi ieri domani mentre però quindi poi dove quando cosa molto poco tanto sempre mai nessun nessuna altro altra altri altre stesso stessa proprio circa fino senza contro presso rispetto bilancio fatturato perdita perdite dividendo cedola buyback dipendenti lavoratori sindacati stipendi salari famiglie consumi mutui centrale economia economico economica presidente ministro ministero tesoro rendimento rendimenti spread fusione acquisizione cessione vendita scambio piano obiettivo obiettivi contratto ordini commesse può possono deve devono fa fanno resta restano cala calano cresce crescono aumenta aumentano frena frenano pesa pesano o se si",
  nl: "de het een en van in op te met voor door bij naar uit over om aan tot als na dan of maar niet ook nog meer minder is zijn was waren wordt worden werd werden heeft hebben had hadden zal zullen kan kunnen wil willen moet moeten dit dat deze die er weer opnieuw nieuwe nieuw hogere lagere hoger lager winst omzet verlies verliezen aandeel aandelen beleggers belegger rente inflatie koers beurs miljoen miljard procent jaar kwartaal maand maanden week prijs prijzen olie goud banken economie werkloosheid stijgt daalt stijgen dalen zakt zakken verhoogt verlaagt boekt ziet zet koopt verkoopt neemt schrapt waarschuwt verwacht verwachtingen blijft sluit opent eerste tweede derde vierde zwakke zwakker sterke sterker sterk hoge lage groei vraag rij ondanks dankzij volgend vorige vorig ruim bijna ongeveer evenveel echter toch wel geen jaren miljoenen kabinet overheid bedrijf bedrijven concern verzekeraar toezichthouder aandeelhouders al alle alleen altijd andere want wat wie waar waarom hoe hun haar hij zij ze we wij je u onze ons zich zo zeer veel weinig iets niets niemand nu nou toen sinds tijdens zonder tegen tussen onder boven achter binnen buiten hier daar dus omdat hoewel wanneer zowel elk elke ieder beide eigen grote kleine grootste kleinste goed beter best slecht slechter hele helft kwart keer jaarlijks miljarden werknemers banen ontslagen salarissen cao huishoudens consumenten huizen woningen hypotheek hypotheken centrale staatsschuld obligaties fusie overname bod verkoop plan plannen doel doelen contract orders bestellingen kosten besparingen dividend inkoop schulden markt stellen handel record",
  pt: "o os as de do da dos das em no na nos nas num numa um uma uns umas e ou para por pelo pela pelos pelas com sem sobre após até entre contra durante desde que se é são foi foram será serão está estão estava ser ter tem têm mais menos também não ao à aos às lucro lucros receita receitas vendas crescimento juros taxa taxas preço preços petróleo bolsa ações acionistas milhões mil bilhões biliões reais dólar dólares ano anos mês meses semana dia dias trimestre semestre governo banco bancos empresa empresas dívida desemprego inflação alta queda sobe sobem cai caem eleva reduz compra vende anuncia supera fecha abre registra registou volta aponta projeções estimativas maior menor maiores menores primeiro primeira segundo terceiro novo nova novos novas apesar manter acima abaixo esperado esse essa este esta isso isto outro outra outros outras todo todos toda todas cada já ainda só apenas muito pouco sempre nunca hoje ontem amanhã porque quando onde como qual quais mas pois então faturamento prejuízo prejuízos dividendos recompra funcionários trabalhadores salários famílias consumo imóveis casas habitação economia económico econômico económica econômica presidente ministro ministério tesouro títulos fusão aquisição venda oferta plano meta metas contrato encomendas pode podem deve devem faz fazem fica ficam cresce crescem aumenta aumentam recua recuam avança avançam",
  sv: "och i på att det som en ett för med av till från om är var varit har hade blir blev bli efter inte men mer än sig sin sina sitt de den dem nya nytt ny också under över mot vid hos när varför vinst vinsten omsättning försäljning försäljningen aktie aktier aktien börsen räntan räntor styrräntan kronan miljarder miljoner procent år året kvartalet kvartal rapport rapporter stiger steg faller föll sänker sänkte höjer höjde ökar ökade minskar minskade köper köpte säljer sålde väntat väntan trots igen fler flera första andra tredje gången bolaget bolag banken bankerna höga låga högre lägre svagare starkare starka svaga går gick får fick gör gjorde ska skulle kan kunde vill ville måste här där nu då så sedan redan bara även mycket mindre större största vilket vilka vad hur eftersom medan utan inom mellan genom enligt ungefär cirka runt bostäder bostadspriserna hushållen konsumenter ekonomin arbetslösheten regeringen riksbanken utdelning utdelningen resultat resultatet rörelseresultat förlust förlusten aktieägare personal anställda varsel",
  da: "og i på at det som en et for med af til fra om er var været har havde bliver blev blive efter ikke men mere end sig sin sine sit de den dem nye nyt ny også under over mod ved hos når hvorfor overskud overskuddet omsætning omsætningen salg salget aktie aktier aktien aktierne renten kronen milliarder millioner procent år året kvartal kvartalet regnskab regnskaber stiger steg falder faldt sænker sænkede hæver hævede øger øgede køber købte sælger solgte udbytte udbyttet måned måneder træk lavere højere forventningerne forventninger selskabet samtidig især skuffende skuffer laveste mindre flere femte hvad hvor hvordan skal skulle kan kunne vil ville må her der nu da så siden allerede kun meget større største hvilket fordi mens uden inden mellem gennem ifølge omkring næsten boliger boligpriserne husholdningerne forbrugerne økonomien ledigheden regeringen nationalbanken resultat resultatet driftsresultat underskud aktionærerne medarbejdere ansatte fyringer virksomheden koncernen går får banken rapport igen gør gik fik bare første andre",
  no: "og i på at det som en et for med av til fra om er var vært har hadde blir ble bli etter ikke men mer enn seg sin sine sitt de den dem nye nytt ny også under over mot ved hos når hvorfor overskudd overskuddet omsetning omsetningen salg salget aksje aksjer aksjen aksjene renten kronen milliarder millioner prosent år året kvartal kvartalet resultat resultatet stiger steg faller falt senker senket hever hevet øker økte kjøper kjøpte selger solgte utbytte utbyttet måned måneder lavere høyere ventet forventet forventningene selskapet fortsatt høye hva hvor hvordan skal skulle kan kunne vil ville må her der nå da så siden allerede bare mye større største hvilket fordi mens uten innen mellom gjennom ifølge omkring nesten gjeld svak svake sterk sterke fikk tall viser nede boliger boligprisene husholdningene forbrukerne økonomien ledigheten regjeringen sentralbanken driftsresultat underskudd aksjonærene ansatte oppsigelser virksomheten konsernet bedriften bedrifter går får mindre banken rapport gjør gikk første andre igjen",
  fi: "ja on ei se että oli ovat olivat ollut kuin myös mutta tai jo nyt vuonna vuoden vuodessa prosenttia prosentin prosenttiin miljoonaa miljoonan miljardia miljardin euroa euron yhtiö yhtiön yhtiöt osake osakkeen osakkeet tulos tuloksen liikevaihto liikevaihdon korko korot korkoja koron inflaatio pörssi pörssissä nousi laski nousee laskee yli alle noin mukaan jälkeen vuoksi huolimatta aikana neljänneksellä neljänneksen odotettua odotuksista kertoi miksi niin eivät vielä heikko heikompi vahva vahvan hän he me ne tämä tämän nämä joka jotka mikä mitä kun jos koska sekä eli vain jopa enää lähes arvio ennuste kasvu kasvoi kasvaa lasku nousu hinta hinnat hintojen talous talouden työttömyys hallitus keskuspankki pankki pankin sijoittajat osinko osingot tappio voitto uusi uuden uutta vanha suuri suuren pieni pienen hyvä huono korkea matala viime ensi tänä vuosi vuotta kuukausi kuukauden viikko päivä tänään eilen huomenna kanssa ilman ennen aikaisemmin myöhemmin",
  pl: "w we i z ze na do od się nie że jest są był była było były będzie będą po przez dla oraz o za przy jak ale już jeszcze roku rok lat proc mln mld zł akcje akcji spółka spółki spółek zysk zysku przychody inflacja inflacji stopy procentowe stóp rosną rośnie spada spadają wzrósł spadł wzrosła spadła wobec bez zmian ponad niż więcej mniej najniższe najwyższe nowej nowe nowy nowa dlaczego został została zostały ceny cen kolejne kolejny jednak także może mogą ma mają co to ten ta te tym tego jego ich który która które których tylko bardzo też teraz około prawie według między pod nad przed obniżki podwyżki banku banki centralny giełda giełdzie kurs złoty złotego dolara gospodarka gospodarki rząd rządu firma firmy",
  cs: "v ve na se je jsou z ze do od pro po za o ke u bude budou byl byla bylo byly že ale i jako také už ještě než roku let procent procenta mld miliard miliardy milionů korun koruny koruna akcie zisk zisku banka banky ceny cen inflace sazby sazbu sazba vzrostla vzrostl klesla klesl zvýšila zvýšil snížila snížil proč podle kvůli díky více méně nejnižší nejvyšší firmy firma opět to ten ta tento tato toto jeho jejich který která které jen velmi nyní téměř mezi pod nad před loni letos tržby akcionáři dividendu ekonomika ekonomiky vláda vlády centrální burza burze bez jak rok",
  tr: "ve bir bu şu için ile da de mi mı çok daha en yeni olarak yüzde milyar milyon bin lira faiz faizi enflasyon borsa hisse hisseleri hissesi kâr kar zarar şirket şirketi şirketin banka bankası bankacılık yıl yılın yılında ay ayında oldu olan olacak etti açıkladı arttı artış düştü düşüş yükseldi yükseliş geriledi sabit tuttu rekor neden göre kadar sonra önce büyük küçük yatırım yatırımcılar ekonomi ekonomik merkez hükümet piyasa piyasalar altın fiyat fiyatları satış satışları ihracat ithalat büyüme işsizlik oranı ise ama fakat gibi kez son ilk",
  ro: "și în la de cu pe din pentru care că nu mai un o al ale ai este sunt fost va vor fi după decât sau prin ce dar anul lei milioane miliarde procent procente dobânda dobânzii inflația inflației banca băncii bursa profit profitul crește cresc scade scad scăzut crescut față mari mare prima dată trei ani anului noi nou noua românia româniei guvernul guvernului compania companiei companii acționari acționarilor dividende această acest aceste acești cel cea cei cele foarte doar deja încă până sub peste între fără asupra economia economiei piața piețele prețurile prețuri salariul salariile se record noul nouă mic bun rău primul primele ultimul ultimele doi două patru cinci zece lună luni săptămână azi ieri mâine trecut viitor",
  hu: "az és egy is nem hogy meg már még csak vagy de mint után miatt szerint alatt ellen között év évi éves évben százalék százalékkal százalékos milliárd millió forint forintot forintos bankok kamat kamatot infláció tőzsde nyereség nyereséget vártnál nagyobb kisebb több kevesebb ismét emeli csökkenti csökkentette csökkent nőtt nő zárt miért magyar ez ezt azt ezzel amely amelyek ahol akkor most pedig sem lesz lett volt van nincs mert során óta kormány jegybank gazdaság gazdasági árak árfolyam részvény részvények osztalék cég cégek vállalat új első ezer száz előtt felett két három négy öt tíz nagy kis jó rossz magas alacsony évente havonta hónap hét nap ma tegnap holnap ára részvényei idei tavalyi",
  ca: "el la els les de del dels al als en amb per i o que es és són ha han un una uns unes més però com quan també sobre entre fins després abans seu seva seus seves aquest aquesta aquests aquestes any anys milions euros borsa preu preus atur govern empresa empreses inflació creix creixen baixa puja pujada nivell mai diners tipus interès segueixen tornen deixa noves nous nou estiu comptes ja encara molt poc tot tots totes altre altra altres mateix mateixa sense contra durant perquè doncs qui això aquí allà avui ahir demà mes mesos setmana dia dies economia econòmica president consellera conseller generalitat catalunya catalanes catalans banc bancs habitatge lloguer se si",
};

// Letters with diacritics and the languages (of the Latin-script ones) that use them.
const LETTERS: Record<string, string> = {
  ß: "de",
  ä: "de sv fi",
  ö: "de sv fi tr hu",
  ü: "de tr hu ca",
  å: "sv da no",
  æ: "da no",
  ø: "da no",
  ñ: "es",
  ç: "fr pt ca tr",
  ã: "pt",
  õ: "pt",
  ğ: "tr",
  ı: "tr",
  ş: "tr ro",
  ș: "ro",
  ț: "ro",
  ţ: "ro",
  ă: "ro",
  ő: "hu",
  ű: "hu",
  ą: "pl",
  ę: "pl",
  ł: "pl",
  ń: "pl",
  ś: "pl",
  ź: "pl",
  ż: "pl",
  ć: "pl",
  ř: "cs",
  ě: "cs",
  ů: "cs",
  č: "cs",
  š: "cs",
  ž: "cs",
  ý: "cs",
  ď: "cs",
  ť: "cs",
  ň: "cs",
  é: "fr es it pt hu cs ca",
  è: "fr it ca",
  ê: "fr pt",
  ë: "fr nl",
  à: "fr it ca pt",
  â: "fr pt ro tr",
  î: "fr ro",
  ô: "fr pt",
  û: "fr",
  ù: "fr it",
  ï: "fr ca nl",
  œ: "fr",
  ì: "it",
  ò: "it ca",
  í: "es pt ca cs hu",
  ó: "es pt ca pl hu",
  ú: "es pt ca cs hu",
  á: "es pt cs hu",
  "·": "ca",
};

// The letters beyond a-z that each Latin-script language writes (used to rule a language out).
const ALPHABET: Record<string, string> = {
  en: "",
  fr: "àâæçéèêëîïôœùûüÿ",
  de: "äöüß",
  es: "áéíóúñü",
  it: "àèéìíòóù",
  nl: "áéèëïóöü",
  pt: "áâãàçéêíóôõú",
  sv: "åäöé",
  da: "æøåé",
  no: "æøåéèóô",
  fi: "äöå",
  pl: "ąćęłńóśźż",
  cs: "áčďéěíňóřšťúůýž",
  tr: "çğıöşüâîû",
  ro: "ăâîșțşţ",
  hu: "áéíóöőúüű",
  ca: "àçèéíïòóúü·",
};

// Endings typical of one language (or two), for words that are not in the word lists.
const SUFFIXES: [string, string][] = [
  ["ção", "pt"],
  ["ções", "pt"],
  ["eiro", "pt"],
  ["eira", "pt"],
  ["zione", "it"],
  ["zioni", "it"],
  ["ción", "es"],
  ["ciones", "es"],
  ["ció", "ca"],
  ["ung", "de"],
  ["ungen", "de"],
  ["keit", "de"],
  ["heit", "de"],
  ["lich", "de"],
  ["isch", "de nl"],
  ["ität", "de"],
  ["lijk", "nl"],
  ["heid", "nl"],
  ["ing", "en nl"],
  ["ed", "en"],
  ["ly", "en"],
  ["tion", "en fr"],
  ["ment", "fr en"],
  ["eaux", "fr"],
  ["mente", "es it pt"],
  ["ssa", "fi"],
  ["ssä", "fi"],
  ["stä", "fi"],
  ["llä", "fi"],
  ["ltä", "fi"],
  ["ksi", "fi"],
  ["ään", "fi"],
  ["nsä", "fi"],
  ["sjon", "no"],
  ["het", "no sv"],
  ["hed", "da"],
  ["ului", "ro"],
  ["ilor", "ro"],
  ["ește", "ro"],
  ["ful", "en"],
  ["ul", "ro"],
  ["ów", "pl"],
  ["ych", "pl cs"],
];

// Letter sequences typical of one or two languages, for words not in the lists (English th/sh/ght, Dutch ij/oe/aa,
// German tz/pf, Spanish "ue" after a consonant other than q/g (puerto, nuevo), Portuguese lh/nh, Catalan ny+vowel...).
const MARKS: [RegExp, string][] = [
  [/th|sh|wh|ght/, "en"],
  [/ij|oe|oor|aar/, "nl"],
  [/aa|uu/, "nl fi"],
  [/sch/, "de nl"],
  [/tz|pf/, "de"],
  [/[^qg]ue/, "es"],
  [/lh|nh/, "pt"],
  [/eau|eux/, "fr"],
  [/ny[aeiou]/, "ca hu"],
  [/[aeu]ix/, "ca pt"],
  [/ää|yy|y.*[äö]|[äö].*y/, "fi"],
  [/kj/, "no"],
  [/cz|rz/, "pl"],
  [/sz/, "pl hu"],
  [/zs|gy[aeiouáéíóöőúüű]/, "hu"],
  [/gli|zz|cch/, "it"],
];

// Elisions and apostrophe suffixes: "l'euro", "dell'Opec", "Moody's", "Kapalıçarşı'da".
const PREFIX_ELISIONS: Record<string, string> = {
  l: "fr it ca",
  d: "fr it ca",
  s: "fr ca",
  n: "fr ca",
  j: "fr",
  c: "fr",
  qu: "fr",
  jusqu: "fr",
  lorsqu: "fr",
  dell: "it",
  dall: "it",
  sull: "it",
  all: "it",
  nell: "it",
  un: "it",
  quest: "it",
  po: "it",
};
const APOS_SUFFIX: Record<string, string> = {
  s: "en nl",
  t: "en",
  de: "tr",
  da: "tr",
  te: "tr",
  ta: "tr",
  den: "tr",
  dan: "tr",
  in: "tr",
  ın: "tr",
  un: "tr",
  ün: "tr",
  nin: "tr",
  nın: "tr",
  e: "tr",
  a: "tr",
  ye: "tr",
  ya: "tr",
  i: "tr",
  ı: "tr",
  yi: "tr",
  yı: "tr",
};

// Words of close relatives outside the 26 that rule out the language they resemble: Afrikaans (not Dutch),
// Galician (not Portuguese/Spanish), Slovak, Slovenian, Croatian (not Czech/Polish); "*" = not any of ours
// (Tagalog, Indonesian/Malay, Basque, Swahili).
const VETO: Record<string, string> = {
  nie: "nl de cs",
  teen: "nl de",
  sê: "nl de",
  gestyg: "nl de",
  aandele: "nl de",
  maatskappy: "nl de",
  vir: "nl de",
  hulle: "nl de",
  word: "nl de",
  sal: "nl de",
  elkeen: "nl de",
  reg: "nl de",
  deur: "nl de",
  nin: "pt es",
  unha: "pt es",
  polo: "pt es",
  pola: "pt es",
  coa: "pt es",
  moi: "pt es",
  tamén: "pt es",
  xa: "pt es",
  sa: "cs",
  ako: "cs",
  alebo: "cs",
  pre: "cs",
  sú: "cs",
  ktoré: "cs pl",
  ktorý: "cs pl",
  ktorá: "cs pl",
  podľa: "cs",
  ki: "cs pl",
  koji: "cs pl",
  ili: "cs pl",
  ang: "*",
  ng: "*",
  mga: "*",
  yang: "*",
  dengan: "*",
  untuk: "*",
  dari: "*",
  tidak: "*",
  eta: "*",
  dute: "*",
  baina: "*",
  kwa: "*",
  haki: "*",
  kila: "*",
};

/** Characters of Chinese text that Japanese does not use (simplified forms; traditional ones Japanese simplified differently). */
const CHINESE_ONLY = /[这這们們经说說对對时发發为让讓进业门长东车买卖賣价價涨漲跌吗嗎呢银证證股场汇匯个亿]/;

const LATIN_LANGS = Object.keys(WORDS);
// Thresholds of the margin rule, chosen on the development corpus (see the evaluation): about two listed
// words, or one word and a telling letter; and a clear lead over the runner-up.
const MIN_EVIDENCE = 1.5;
const MIN_LEAD = 0.75;

let wordIndex: Map<string, string[]> | undefined;
function index(): Map<string, string[]> {
  if (wordIndex) return wordIndex;
  wordIndex = new Map();
  for (const lang of LATIN_LANGS) {
    for (const w of (WORDS[lang] ?? "").split(" ")) {
      if (!w) continue;
      const l = wordIndex.get(w);
      if (!l) wordIndex.set(w, [lang]);
      else if (!l.includes(lang)) l.push(lang);
    }
  }
  return wordIndex;
}

const add = (s: Record<string, number>, langs: string | string[], w: number) => {
  const l = typeof langs === "string" ? langs.split(" ") : langs;
  for (const x of l) s[x] = (s[x] ?? 0) + w / l.length;
};

function count(text: string, re: RegExp): number {
  return text.match(re)?.length ?? 0;
}

/** The script rule (step 1): a code, null (a script we do not answer for), or undefined (Latin: go on). */
function byScript(t: string): string | null | undefined {
  const latin = count(t, /\p{Script=Latin}/gu);
  const kana = count(t, /[\p{Script=Hiragana}\p{Script=Katakana}]/gu);
  const han = count(t, /\p{Script=Han}/gu);
  const hangul = count(t, /\p{Script=Hangul}/gu);
  const greek = count(t, /\p{Script=Greek}/gu);
  const cyr = count(t, /\p{Script=Cyrillic}/gu);
  const hebrew = count(t, /\p{Script=Hebrew}/gu);
  const arabic = count(t, /\p{Script=Arabic}/gu);
  const deva = count(t, /\p{Script=Devanagari}/gu);
  const letters = count(t, /\p{L}/gu);
  const other = letters - latin - kana - han - hangul - greek - cyr - hebrew - arabic - deva;
  // A script must hold most letters: Latin names and tickers inside a Korean or Greek headline do not count against it.
  const best = Math.max(latin, kana + han, hangul, greek, cyr, hebrew, arabic, deva, other);
  if (best === 0) return null;
  if (best === latin) return undefined;
  if (best === other) return null;
  if (best === hangul) return hangul >= 2 ? "ko" : null;
  if (best === kana + han) {
    if (kana > 0) return kana + han >= 3 ? "ja" : null;
    // Han alone is Chinese only with a character Japanese does not write (simplified forms, and
    // traditional ones Japanese replaced): a kanji-only Japanese headline ("日経平均、大幅続伸") is not.
    return han >= 4 && CHINESE_ONLY.test(t) ? "zh" : null;
  }
  if (best === greek) return greek >= 4 ? "el" : null;
  if (best === hebrew) return hebrew >= 4 && !/[\u05F0-\u05F2]/.test(t) ? "he" : null; // Yiddish digraphs -> null
  if (best === arabic) return arabic >= 4 && count(t, /[پچژگکیٹڈڑںےۀہ]/g) < 2 ? "ar" : null; // Persian/Urdu letters -> null
  if (best === deva) {
    // Hindi, unless Marathi (ळ, आहे, आणि, किंवा, च्या, नाही) or Nepali (छ, हरू, लाई) shows; and a Hindi postposition or verb
    // (में, है, और, ने, से, पर, की, का, के...) must appear, since Marathi and Nepali share the script.
    if (deva < 4 || /ळ|आहे|आणि|आणखी|किंवा|असे|च्या|नाही|हरू|लाई|(^|\s)छ(\s|$|।)/.test(t)) return null;
    return /(^|\s)(में|है|हैं|और|ने|से|पर|की|का|के|को|लिए|नहीं|भी|तक|गया|गई|किया|रहा|रही|हुआ|हुई)(?=\s|$|[।,?!])/.test(t)
      ? "hi"
      : null;
  }
  // Cyrillic.
  const lower = t.toLowerCase();
  if (/[ђћџљњјѓќѕўәғқңөұүһ]/.test(lower)) return null; // Serbian, Macedonian, Belarusian, Kazakh...
  const uk = count(lower, /[іїєґ]/g);
  const ru = count(lower, /[ыэё]/g);
  const hard = count(lower, /ъ/g);
  if (uk > 0 && ru === 0 && hard === 0) return "uk";
  if (ru > 0 && uk === 0) return "ru";
  if (uk === 0 && hard > 0) return null; // ъ without ы/э: Bulgarian is likelier than Russian
  // Without і or ы/э/ё: Russian if long enough (Ukrainian text this long almost always shows an і) and a
  // Russian ending or word shows (-ого, -ться, -ый, что, это...), which Bulgarian and Serbian do not have.
  if (
    uk === 0 &&
    cyr >= 25 &&
    /(ого|его|ому|ему|ться|тся|ись|ась|ый|ий|ая|ое|ые)(?!\p{L})|(^|[^\p{L}])(что|это|как|для|после|из)(?!\p{L})/u.test(
      lower,
    )
  )
    return "ru";
  return null;
}

/**
 * The language of a news text (a headline, or "headline. summary") as an ISO 639-1 code, or null
 * when unsure (a wrong code would hide the article from a language filter; null keeps it).
 * @example detectLanguage("Siemens hebt die Jahresprognose an") // "de"
 */
export function detectLanguage(text: string): string | null {
  const t = text
    .normalize("NFC")
    .replace(/[’‘`´]/g, "'")
    .trim();
  if (t.length < 4) return null;
  const s = byScript(t);
  if (s !== undefined) return s;
  if (t.length < 12) return null; // too little Latin text to tell languages apart

  const idx = index();
  const score: Record<string, number> = {};
  const penalty: Record<string, number> = {};
  const vetoed = new Set<string>();
  const upper = t === t.toUpperCase(); // an all-caps headline: read every word as lowercase
  // Words, with the apostrophe kept so elisions can be recognised. "·" is part of Catalan words (col·lecció).
  // A word right after the start or after . ! ? : is a sentence start: capitalised, but not a name.
  const re = /[\p{L}\d]+(?:['·][\p{L}\d]+)*/gu;
  let last = 0;
  let previousCapital = false;
  for (const m of t.matchAll(re)) {
    const raw = m[0];
    const first = last === 0 || /[.!?:;«"“]\s*$/.test(t.slice(last, m.index));
    last = m.index + raw.length;
    if (/^\d/.test(raw)) {
      const n = /^[\d.,]+'(\p{L}+)$/u.exec(raw); // "50'de": Turkish suffix on a number
      if (n?.[1] && APOS_SUFFIX[n[1]] === "tr") add(score, "tr", 1);
      continue;
    }
    if (raw.length > 1 && raw === raw.toUpperCase() && !upper) continue; // tickers, acronyms: ASML, BCE, EZB
    const w = raw.toLowerCase();
    const capital = !upper && !first && raw[0] !== w[0];
    const nextCapital = !upper && /^\s+\p{Lu}/u.test(t.slice(last));
    // Beside another capitalised word a capitalised word is part of a name ("Deutsche Börse"), even in German.
    const inName = capital && (previousCapital || nextCapital);
    previousCapital = capital || (first && raw[0] !== w[0]);
    if (!capital && VETO[w]) {
      if (VETO[w] === "*") return null;
      for (const l of VETO[w].split(" ")) vetoed.add(l);
    }
    let core = w;
    const ap = w.indexOf("'");
    if (ap > 0) {
      const pre = w.slice(0, ap);
      const post = w.slice(ap + 1);
      if (PREFIX_ELISIONS[pre]) {
        add(score, PREFIX_ELISIONS[pre], 1.5);
        core = post;
      } else if (APOS_SUFFIX[post]) {
        add(score, APOS_SUFFIX[post], 1);
        core = pre;
      }
    }
    const lw = capital ? 0.3 : 1; // names (capitalised inside a sentence) count for less
    const langs = idx.get(core);
    // A capitalised word inside a sentence is likely a name, except in German, which capitalises every noun.
    if (langs)
      for (const l of langs) score[l] = (score[l] ?? 0) + (capital && (l !== "de" || inName) ? 0.5 : 1) / langs.length;
    else if (core.length >= 5) {
      for (const [suf, l] of SUFFIXES)
        if (core.endsWith(suf)) {
          add(score, l, 0.5 * lw);
          break;
        }
      for (const [re2, l] of MARKS) if (re2.test(core)) add(score, l, 0.5 * lw);
    }
    for (const ch of new Set(core)) {
      const l = LETTERS[ch];
      if (l) add(score, l, lw);
    }
    // Spanish, Portuguese, Catalan and Italian put at most one accent on a word ("beruházás" is not Spanish).
    if (!capital && count(core, /[áéíóúàèìòùâêîôûãõ]/g) >= 2)
      for (const l of ["es", "pt", "ca", "it"]) penalty[l] = (penalty[l] ?? 0) + 1;
    // A lowercase word with a letter foreign to a language is evidence against that language.
    if (!capital && /[^a-z]/.test(core)) {
      for (const lang of LATIN_LANGS) {
        for (const ch of core) {
          if (ch > "z" && ch !== "'" && !(ALPHABET[lang] ?? "").includes(ch)) {
            penalty[lang] = (penalty[lang] ?? 0) + 1;
            break;
          }
        }
      }
    }
  }
  let best = "",
    b1 = -Infinity,
    b2 = -Infinity;
  // Czech is told from Slovak, Slovenian and Croatian by ř/ě/ů, which nearly every Czech sentence has.
  if (!/[řěů]/i.test(t)) vetoed.add("cs");
  // Slovak letters rule out Czech; the Afrikaans article 'n rules out Dutch; Portuguese never writes ä/ö/ü.
  if (/[ľĺŕ]/i.test(t)) vetoed.add("cs");
  if (/(^|\s)'n\s/.test(t)) vetoed.add("nl");
  if (/[äöü]/i.test(t)) vetoed.add("pt");
  for (const lang of LATIN_LANGS) {
    if (vetoed.has(lang)) continue;
    const v = (score[lang] ?? 0) - 1.5 * (penalty[lang] ?? 0);
    if (v > b1) {
      b2 = b1;
      b1 = v;
      best = lang;
    } else if (v > b2) b2 = v;
  }
  // Margin rule (thresholds chosen on the development corpus): enough evidence, and a clear lead.
  if (b1 < MIN_EVIDENCE || b1 - Math.max(b2, 0) < MIN_LEAD) return null;
  return best;
}
