"""The words of ``004_5d8774dfa45f46a9.txt`` ("D&D 5e Mechanika", Polish) that each DND rule implements, quoted as
the document writes them (``docs/rules.md`` shows them beside the rule's English gloss; tests/rules/test_rule_quotes.py
checks each occurs in the document when the source documents are at hand). A feat (DND-F01..F42) is quoted by its
heading and its opening lines; `` … `` marks where a quote leaves words out."""

QUOTES: dict[str, str] = {
    "DND-01": "Kiedy punty wytrzymałości spadną do 0 i zostaną jeszcze jakieś obrażenia do przydzielenia, to postać "
              "umiera jeśli pozostałe obrażenia będą conajmniej równe jej maksymalnym punktom wytrzymałości.",
    "DND-02": "Jeśli punkty wytrzymałości zejdą postaci do 0 ale jej nie zabiją to tracisz przytomność. Stan ten kończy "
              "się kiedy odzyskasz jakiekolwiek punkty wytrzymałości.",
    "DND-03": "Rzucasz k20 i jeśli rzut jest 10 lub więcej to możesz sobie zaznaczyć kółko w sukcesach, jeśli nie to "
              "zaznaczasz kółko w porażce. Jeśli dojdziesz do 3 sukcesów to się stabilizujesz. Jeśli dojdziesz do 3 "
              "porażek to umierasz.",
    "DND-04": "Jeśli otrzymasz jakiekolwiek obrażenia kiedy jesteś na 0 PW to musisz sobie dopisać jedną porażkę do "
              "rzutu przeciw śmierci. Jeśli trafienie było krytyczne to musisz dopisać dwie porażki. Jeśli obrażenia "
              "są co najmniej równe twojej maksymalnej liczbie PW to umierasz.",
    "DND-05": "Ktoś musi podejść do postaci i zdać test o ST 10. Jeśli wyjdzie to postać pozostaje nieprzytomna ale nie "
              "musi już zdawać rzutów obronnych przeciw śmierci.",
    "DND-10": "Walka dzieje się na rundy - runda trwa w przybliżeniu 6 sekund w świecie gry. W trakcie rundy każdy "
              "uczestnik rozgrywa swoją turę. Kolejność wykonywania tur określa inicjatywa.",
    "DND-11": "Podczas tury możesz się ruszyć na odległość nie większą jak twoja szybkość i wykonać akcję.",
    "DND-12": "Jeśli nie masz nic co pozwala ci na wykonanie akcji dodatkowej to jej nie wykonujesz. Jeśli masz "
              "możliwość wykonania więcej jak jednej akcji dodatkowej to musisz się zdecydować, którą wykonujesz - "
              "można wykonać tylko jedną.",
    "DND-13": "Reakcje działają podobie do akcji dodatkowej różnica jest taka, że wykonujesz ją w odpowiedzi na czyjeś "
              "działania, lub jakieś specyficzne okoliczności.",
    "DND-14": "Jeśli rzucasz czar w ramach akcji dodatkowej to w tej samej turze nie możesz już rzucić drugiego "
              "zaklęcia, którego rzucenie wymaga akcji, chyba że jest to sztuczka.",
    "DND-15": "Można podzielić swój ruch podczas własnej tury wykorzystując część swojej szybkości przed i po swojej "
              "akcji.",
    "DND-16": "Atak Wykonujesz atak wręcz lub dystansowy",
    "DND-17": "Odstąpienie Twój ruch do końca tury nie prowokuje ataków okazyjnych",
    "DND-18": "Pomagasz innej istocie w wykonywanym przez nią zadaniu co daje jej ułatwienie. Alternatywie możesz pomóc "
              "innej istocie zaatakować inne stworzenie znajdujące się 1,5 m od ciebie np. pozorując atak.",
    "DND-19": "Zależnie od rodzaju poszukiwań rzucasz na percepcję lub śledztwo.",
    "DND-20": "Najpierw trzeba zadeklarować jakie możliwe do zaobserwowania przez ciebie okoliczności prowokują twoją "
              "reakcję - wybierasz akcję, którą wykonasz albo ruch na odległość do wartości twojej szybkości.",
    "DND-21": "Rzucasz zaklęcie. Każdy czar ma swój czas określony w jego zasadach.",
    "DND-22": "Dostajesz dodatkowy ruch w swojej turze - możesz się ruszyć 2 x twoja szybkość w metrach.",
    "DND-23": "Jeśli okoliczności pozwalają ci na ukrycie się wykonujesz test skradania się sporny z testem percepcji "
              "każdego kto cię aktywnie szuka. Jeśli wyjdzie cel cię nie widzi.",
    "DND-24": "Do początku twojej następnej tury każdy atak skierowany na ciebie ma utrudnienienie. Masz też ułatwienie "
              "w rzutach obronnych na zręczność.",
    "DND-25": "Korzystasz z tego jeśli obiekt wymaga zużycia akcji do jego użycia.",
    "DND-26": "Kiedy atakujesz cel którego nie widzisz masz utrudnienie w teście ataku.",
    "DND-27": "Jeśli wykonujesz test ataku dystansowego (za pomocą broni lub czaru) masz utrudnienie w teście ataku "
              "jeśli znajdujesz się do 1,5 m od wrogiej istoty która cię widzi i nie jest obezwładniona.",
    "DND-28": "Możesz wykonać atak okazyjny jeśli wroga istota, którą widzisz opuszcza twoją strefę ataku. Aby go "
              "wykonać musisz zużyć swoją reakcję.",
    "DND-29": "Gdy wykonujesz atak bronią lekką którą trzymasz w jednej dłoni, możesz użyć akcji dodatkowej aby "
              "zaatakować inną lekką bronią trzymaną w drugiej dłoni.",
    "DND-30": "Pochwycenie Musisz zużyć na to akcję ataku - jeśli masz więcej jak jeden atak to do wykonania tej akcji "
              "musisz zużyć jeden z nich. Cel może być maksymalnie o jeden rozmiar większy od ciebie i musi być w "
              "twojej strefie ataku.",
    "DND-31": "Jeśli wygrasz twoj cel zostaje powalony albo odepchnięty o 1,5 m od ciebie.",
    "DND-32": "Cel osłonięty połowicznie dostaje +2 do KP. … Cel osłonięty w trzech czwartych dostaje +5 do KP i rzutów "
              "obronnych na zręczność. … Cel osłonięty w całości nie może być wyznaczony jako bezpośredni cel ataku "
              "lub czaru.",
    "DND-33": "Jeśli cel jest odporny na jakiś typ obrażeń to otrzymuje tylko połowę obrażeń danego typu. Jeśli cel jest "
              "podatny na jakieś obrażenie to obrażenia tego typu są podwojone.",
    "DND-34": "Jeśli zadałeś obrażenia istocie i jej PW zostało zredukowane do 0 to możesz podjąć decyzję, że zamiast "
              "zabijać to ogłuszasz cel. Istota traci przytomność i jest stabilna",
    "DND-35": "Tymczasowe PW są osobną pulą PW. Jeśli otrzymujesz obrażenia to tracisz tymczasowe punkty wytrzymałości "
              "jako pierwsze, a pozostałe obrażenia przechodzą na twoje właściwe PW.",
    "DND-36": "Podczas swojego ruchu możesz wsiąść na stworzenie znajdujące się do 1,5 m od ciebie lub z niego zsiąść. "
              "Kosztuje cię to połowę twojej szybkości.",
    "DND-37": "Jeśli nie posiadasz szybkości pływania masz utrudnienie w atakach wręcz, chyba że wykonujesz go za "
              "pomocą: krótkiego miecza, oszczepu, sztyletu, trójzębu lub włóczni.",
    "DND-38": "Raz na rundę, gdy atakujesz z ułatwieniem bronią finezyjną lub dystansową możesz zadać dodatkowe "
              "obrażenia.",
    "DND-39": "Wykonujesz test zręczności do którego dodajesz premię z biegłości, jeśli masz biegłość w używaniu "
              "narzędzi złodziejskich.",
    "DND-40": "Każdy obiekt ma swoją własną wbudowaną w niego klasę pancerza. Waha się on od 11 dla kartki papieru do 23 "
              "dla adamantyny. Drewno ma zazwyczaj około 15 KP, kamień 17 KP, a metal 19.",
    "DND-41": "nieprzytomny jest traktowany jak obezwładniony (nie może podejmować akcji i reakcji) - stworzenie "
              "upuszcza wszystkie trzymane przedmioty i upada",
    "DND-42": "niewidzialnego stworzenia nie można zobaczyć bez zastosowania specjalnych zdolności lub magii.",
    "DND-43": "Obezwładniona istota nie może podejmować akcji i reakcji",
    "DND-44": "Ogłuchła istota nie słyszy i automatycznie nie zdaje testów cech opartych na słuchu",
    "DND-45": "ogłuszone stworzenie jest obezwładnione (nie może podejmować akcji i reakcji), nie może się poruszać i ma "
              "trudności z mówieniem",
    "DND-46": "Oślepione stworzenie nie widzi i automatycznie nie zdaje testów cech opartych na wzroku",
    "DND-47": "szybkość pochwyconego stworzenia spada do 0 i nie może ono korzystać z premii do szybkości",
    "DND-48": "powalony w ramach ruchu może się tylko czołgać, chyba że się podniesie i tym zakończy ten stan - "
              "stworzenie ma utrudnienie w testach ataku",
    "DND-49": "przerażone stworzenie wykonuje wszystkie testy cech i ataku z utrudnieniem jeśli źródło jego strachu "
              "znajduje się w zasięgu wzroku",
    "DND-50": "skamieniałe stworzenie wraz ze wszystkimi noszonymi i trzymanymi przedmiotami zostaje zamienione w "
              "nieruchomą, litą statuę.",
    "DND-51": "sparaliżowane stworzenie jest obezwładnione (nie może podejmować akcji i reakcji), a także nie może "
              "mówić i się poruszać",
    "DND-52": "szybkość unieruchomionego spada do 0 i nie może on korzystać z premii do szybkości - testy ataku "
              "przeciwko unieruchomionemu mają ułatwienie, a ataki unieruchomionego mają utrudnienia",
    "DND-53": "Zatruty ma utrudnienie w rzutach na atak i testach cech",
    "DND-54": "Zauroczony nie może atakować ani w żaden inny sposób zaszkodzić osobie powodującej zauroczenie",
    "DND-F00": "Jeśli w jakiś sposób twoje atrybuty spadną poniżej wymagań posiadanego przez ciebie atutu, to do czasu "
               "odzyskania pełni sił nie możesz z niego korzystać. Każdy atut można wziąć tylko raz chyba że jest "
               "inaczej w opisie.",
    "DND-F01": 'ADEPT SZTUK WALKI - wybierasz dwa dowolne manewry spośród dostępnych dla archetypu mistrza bitew w '
               'klasie wojownika. Jeśli cel musi wykonać rzut obronny by odeprzeć jego efekty to ST rzutu wynosi 8 + '
               'twoja premia z biegłości + twoja premia z siły lub zręczności - otrzymujesz kość przewagi K6. Jeśli '
               'masz już kości przewagi z innego źródła to jest ona dodawana do tych już posiadanych. Używasz jej do '
               'wykonywania …',
    "DND-F02": 'ADEPT ŻYWIOŁÓW Wymagania: umiejętność rzucenia przynajmniej jednego czaru Gdy wybierasz ten atut '
               'wybierasz sobie jeden z następujących typów obrażeń: dźwięk, elektryczność, kwas, ogień, zimno. '
               'Rzucane przez ciebie zaklęcia ignorują odporność celu na dany typ obrażeń. Dodatkowo kiedy zadajesz '
               'obrażenia wybranego przez ciebie typu to każdy wynik 1 podczas rzucania obrażeń traktujesz jako 2. '
               'Można wybrać wielokrotnie …',
    "DND-F03": 'AKTOR - twoja charyzma rośnie o 1. Maksymalnie do 20 - masz ułatwienie w testach charyzmy na '
               'oszustwo i występy ilekroć podszywasz się pod inną osobę -jesteś w stanie naśladować czyjś sposób '
               'mówienia bądź dźwięki wydawane przez inne stworzenia. Aby to zrobić musisz przynajmniej przez minutę '
               'słuchać głosu lub dźwięków wydawanych przez daną istotę. Udany test intuicji przeciwko twojemu '
               'testowi oszustwa pozwala wykryć …',
    "DND-F04": 'ATLETA -twoja siła lub zręczność rośnie o 1. Maksymalnie do 20. -kiedy jesteś powalony musisz zużyć '
               'tylko 1,5 swojej szybkości żeby wstać -wspinaczka nie kosztuje cię dodatkowej szybkości -aby wykonać '
               'skok wzwyż lub w przód z rozbiegu potrzebujesz na rozpęd 1,5 m zamiast 3 m.',
    "DND-F05": 'BADACZ PODZIEMI - masz ułatwienie w testach percepcji i śledztwa podczas prób znalezienia ukrytych '
               'drzwi -masz ułatwienie w rzutach obronnych przeciwko pułapkom i ich efektom -masz odporność na '
               'obrażenia zadawane przez pułapki -podróżowanie w szybkim tempie nie powoduje u ciebie kary - 5 do '
               'wartości twojej pasywnej mądrości',
    "DND-F06": 'BRUTALNY NAPASTNIK Raz na turę możesz przerzucić rzut na obrażenia zadawane atakiem wręcz bronią i '
               'wybrać wynik.',
    "DND-F07": 'BYSTRY UMYSŁ - twoja inteligencja rośnie o 1. Maksymalnie do 20. - zawsze wiesz gdzie jest północ - '
               'zawsze wiesz ile godzin zostało do wschodu czy zachodu słońca - jesteś w stanie przypomnieć sobie w '
               'najmniejszych szczegółach wszystkie rzeczy zobaczone lub usłyszane przez ciebie w ciągu ostatniego '
               'miesiąca',
    "DND-F08": 'CIĘŻKO OPANCERZONY wymagania: biegłość w średnich pancerzach - twoja siła rośnie o 1. Maksymalnie do '
               '20. - zyskujesz biegłość w ciężkich pancerzach',
    "DND-F09": 'CZATOWNIK - możesz próbować się ukryć jeśli dla istoty przed którą się chowasz jesteś w obszarze '
               'ograniczonej widoczności - nieudany atak z ukrycia bronią dystansową nie zdradza twojej pozycji '
               'celowi ataku - słabe oświetlenie nie powoduje utrudnienia w twoich testach percepcji opartych na '
               'wzroku',
    "DND-F10": 'CZUJNY - otrzymujesz +5 do inicjatywy - póki jesteś przytomny nie można cię zaskoczyć - twoi '
               'przeciwnicy nie otrzymują ułatwienia w testach ataku gdy ich nie widzisz',
    "DND-F11": 'JĘZYKOZNAWCA - twoja inteligencja rośnie o 1. Maksymalnie do 20. - znasz 3 dodatkowe języki - '
               'potrafisz tworzyć szyfry. Inni potrafią je odczytać, jeśli pokażesz im jak to zrobić, zdadzą test '
               'inteligencji o ST równym twojemu testowi z inteligencji + premia z biegłości, lub skorzystają z '
               'odpowiedniej magii.',
    "DND-F12": 'KAWALERZYSTA - masz ułatwienie w testach ataku przeciwko niedosiadającym wierzchowca wrogom '
               'mniejszym od twojego wierzchowca - możesz skierować na siebie atak wymierzony w twojego wierzchowca '
               '- jeśli twój wierzchowiec może wykonać rzut obronny na zręczność aby otrzymać połowę obrażeń, to w '
               'wypadku sukcesu nie otrzymuje obrażeń, a w wypadku porażki otrzymuje tylko połowę obrażeń',
    "DND-F13": 'LEKKO OPANCERZONY - twoja zręczność lub siła rosną o 1. Maksymalnie do 20. - zyskujesz biegłość w '
               'lekkich pancerzach',
    "DND-F14": 'MAG BITEWNY - Kiedy otrzymujesz obrażenia, masz ułatwienie w rzutach obronnych na kondycję, '
               'koniecznych do utrzymania koncentracji na zaklęciu - jesteś w stanie zapewnić komponent somatyczny '
               'do czaru nawet jeśli trzymasz broń lub tarczę w jednej lub obu rękach - kiedy ruch wrogiego '
               'stworzenia prowokuje twój atak okazyjny, możesz wykorzystać swoją reakcję do rzucenia czaru na to '
               'stworzenia zamiast wykonywania ataku. …',
    "DND-F15": 'MISTRZ BRONI DRZEWCOWEJ - kiedy wykonujesz akcję ataku wykorzystując drąg, glewię, halabardę lub '
               'włócznię, możesz użyć akcji dodatkowej, by wykonać kolejny atak drugim końcem broni, wykorzystując '
               'ten sam modyfikator z cechy co w ataku podstawowym. Kość obrażeń wynosi k4, a atak zadaje obrażenia '
               'obuchowe. - kiedy walczysz drągiem, glewią, halabardą, piką lub włócznią, przeciwnicy prowokują atak '
               'okazyjny przy …',
    "DND-F16": 'MISTRZ BRONI DWURĘCZNEJ - gdy w swojej turze uzyskasz trafienie krytyczne lub sprowadzisz '
               'przeciwnika do 0 punktów wytrzymałości bronią białą możesz wykonać atak wręcz bronią białą w ramach '
               'akcji dodatkowej. - przed wykonaniem ataku ciężką bronią w której masz biegłość możesz zdecydować '
               'się przyjąć karę -5 do testu ataku. Jeśli trafisz dostajesz wtedy premię +10 do rzutu na obrażenia.',
    "DND-F17": 'MISTRZ CIĘŻKIEGO PANCERZA Wymagania: biegłość w ciężkich pancerzach - twoja siła rośnie o 1. '
               'Maksymalnie do 20 - kiedy nosisz ciężki pancerz wszystkie zadane ci obrażenia cięte, kłute lub '
               'obuchowe obrażenia zadane niemagiczną bronią zostają zmniejszone o 3',
    "DND-F18": 'MISTRZ ORĘŻA - twoja siła lub zręczność rośnie o 1. Maksymalnie do 20 - otrzymujesz biegłość we '
               'władaniu czterema dowolnie wybranymi rodzajami broni. Każda z nich musi być bronią prostą lub '
               'żołnierską',
    "DND-F19": 'MISTRZ ŚREDNIEGO PANCERZA Wymagania: biegłość w średnich pancerzach - gdy nosisz średni pancerz, nie '
               'masz utrudnienia w testach skradania sie - gdy używasz średniego pancerza możesz dodać 3 zamiast 2 '
               'do KP, jeśli twoja zręczność wynosi 16 lub więcej.',
    "DND-F20": 'MISTRZ TARCZY - Jeśli w swojej turze wykonujesz akcję ataku to możesz wykorzystać akcję dodatkową by '
               'spróbować odepchnąć od siebie przeciwnika znajdującego się do 1,5 m od ciebie - jeśli nie jesteś '
               'obezwładniony możesz dodać premię do KP zawdzięczaną tarczy do rzutów obronnych na zręczność '
               'wykonywanych przeciwko zaklęciu lub innemu efektowi, którego celem jesteś tylko ty. - jeśli jesteś '
               'celem zaklęcia, które pozwala …',
    "DND-F21": 'MISTRZ ZASŁONY Wymagania: zręczność 13 lub więcej Kiedy trzymasz jednoręczną broń finezyjną, w '
               'której używaniu masz biegłość, a twój przeciwnik trafia cię atakiem wręcz, możesz w ramach reakcji '
               'dodać swoją premię z biegłości do KP przeciw temu atakowi, potencjalnie unikając trafienia.',
    "DND-F22": 'MISTYCZNY STRZELEC Wymagania: Umiejętność rzucenia przynajmniej jednego czaru - jeśli rzucasz czar, '
               'który wymaga testu ataku, to jego zasięg jest dwukrotnie większy - twoje ataki dystansowe czarami '
               'ignorują korzyści z osłonny połowicznej lub w trzech czwartych. - poznajesz jedną sztuczkę '
               'wymagającą testu ataku. Wybierz ją z listy czarów barda, druida, kleryka, maga, czarownika lub '
               'zaklinacza. Twoja cecha bazowa …',
    "DND-F23": 'NIE DO ZDARCIA - podnosisz swoją kondycję o 1. Maksymalnie do 20 - kiedy rzucasz kością '
               'wytrzymałości by odzyskać punkty wytrzymałości, traktuj wszystkie wyniki niższe niż twój podwojony '
               'modyfikator z kondycji (minimalnie 2) tak jakby były mu równe.',
    "DND-F24": 'OBURĘCZNY - dostajesz premię +1 do KP, jeśli dzierżysz po jednej broni białej w każdej ręce - możesz '
               'walczyć dwiema broniami nawet wtedy gdy używasz jednoręcznych broni, które nie są lekkie - możesz '
               'wyjąć lub schować dwie jednoręczne bronie tak szybko jak normalnie można wyjąć lub schować jedną '
               'broń',
    "DND-F25": 'ODPORNY Wybierz sobie jedną cechę. - zwiększ wybraną cechę o 1. Maksymalnie do 20 - otrzymujesz '
               'biegłość w rzutach obronnych na tą cechę',
    "DND-F26": 'PRZYWÓDCA Wymagania: charyzma 13 lub więcej Możesz poświęcić 10 minut na zainspirowanie swoich '
               'towarzyszy i wzmocnić ich chęć do walki. Wybierz do 6 (łącznie z tobą) przyjaźnie nastawionych istot '
               'w promieniu 9 m od ciebie mogących cię widzieć lub słyszeć oraz potrafiących cię zrozumieć. Każda z '
               'nich zyskuje tymczasowe punkty wytrzymałości równe twojemu poziomowi + modyfikator z charyzmy. '
               'Stworzenie nie może otrzymać …',
    "DND-F27": 'RUCHLIWY - twoja szybkość rośnie o 3 m - kiedy wykonujesz akcję sprintu trudny teren nie spowalnia '
               'twojego ruchu - gdy atakujesz przeciwnika wręcz, to do końca tury nie prowokujesz jego ataków '
               'okazyjnych, niezależnie od tego czy twój atak trafił',
    "DND-F28": 'SPECJALISTA KUSZNIK - ignorujesz właściwości ładowania dla każdej kuszy w której używaniu jesteś '
               'biegły - gdy znajdujesz się do 1,5 m od wrogiego stworzenia, nie masz utrudnienia w testach ataku '
               'dystansowego - kiedy używasz testu ataku i atakujesz bronią jednoręczną możesz wykonać akcję '
               'dodatkową aby zaatakować trzymaną w drugiej ręce kuszą ręczną',
    "DND-F29": 'SPOSTRZEGAWCZY - twoja inteligencja lub mądrość rosną o 1. Maksymalnie do 20 - kiedy widzisz '
               'stworzenia mówiące w zrozumiałym dla ciebie języku możesz czytać z ruchu ich warg - otrzymujesz '
               'premię +5 do pasywnej percepcji i śledztwa',
    "DND-F30": 'STRZELEC WYBOROWY - nie otrzymujesz utrudnienia do testów ataku za strzelanie do celów na dalekim '
               'dystansie - twoje ataki bronią dystansową ignorują korzyści z osłony połowicznej i w trzech '
               'czwartych - zanim wykonasz atak bronią dystansową możesz zdecydować się przyjąć karę -5 do testu '
               'ataku. Jeśli trafisz otrzymujesz premię +10 do rzutu na obrażenia',
    "DND-F31": 'SZARŻA Kiedy wykonujesz akcję sprintu możesz wykorzystać akcję dodatkową, by raz zaatakować lub '
               'odepchnąć przeciwnika. Jeśli poruszasz się przynajmniej 3 metry w linii prostej przed wykonaniem '
               'akcji dodatkowej to zyskasz premię +5 do rzutu na obrażenia jeśli zdecydujesz się na atak i trafisz, '
               'lub odepchniesz przeciwnika na odległość do 3 metrów jeśli zdecydujesz się go odepchnąć i wygrasz.',
    "DND-F32": 'SZCZĘŚCIARZ Masz 3 punkty szczęścia. Ilekroć wykonujesz test ataku, cechy lub rzut obronny możesz '
               'wydać jeden punkt szczęścia, by rzucić dodatkową k20. O podjęciu tego działania możesz zdecydować '
               'się po wykonaniu pierwszego rzutu, ale zanim poznasz jego rezultat. Wybierasz, którego z 2 wyników '
               'użyjesz w teście czy rzucie obronnym. Możesz też wydać punkt szczęścia aby obronić się przed '
               'wymierzonym w ciebie atakiem. …',
    "DND-F33": 'ŚREDNIO OPANCERZONY Wymagania: biegłość w średnich pancerzach - podnosisz swoją zręczność lub się o '
               '1. Maksymalnie do 20 - zyskujesz biegłość w średnich pancerzach',
    "DND-F34": 'TWARDZIEL Kiedy wybierasz atut twoje maksymalne PW wzrastają o dwukrotną wartość twojego poziomu. '
               'Ilekroć później zyskujesz poziom to twoje PW rosną o dodatkowe 2 PW.',
    "DND-F35": 'UZDOLNIONY Zyskujesz biegłość w dowolnej kombinacji 3 umiejętności lub biegłości w posługiwaniu się '
               'narzędziami.',
    "DND-F36": 'UZDROWICIEL - Gdy wykorzystujesz torbę lekarską aby ustabilizować umierającą istotę, to przywracasz '
               'jej dodatkowo 1 PW. (czyli od razu odzyskuje przytomność zamiast po 1k4 godzinach) - W ramach swojej '
               'akcji możesz wykorzystać jedno użycie torby lekarskiej, aby zająć się istotą i przywrócić jej PW w '
               'wysokości 1k6 +4 plus maksymalna liczba jej kości wytrzymałości. Istota nie może ponownie odzyskać '
               'PW dzięki temu …',
    "DND-F37": 'WARTOWNIK - kiedy trafiasz istotę atakiem okazyjnym to jej szybkość spada do 0 na resztę tury - '
               'przeciwnicy którzy wychodzą z twojej strefy ataku prowokują ataki okazyjne nawet jeśli wykonują '
               'akcję odstąpienia - kiedy przeciwnik, w promieniu 1,5 m od ciebie, który wykonuje atak w inny cel '
               'jak ty (i nie mający atutu wartownik) to możesz wykorzystać reakcję by wykonać atak bronią wręcz '
               'przeciwko atakującemu',
    "DND-F38": 'WTAJEMNICZONY Wybierz klasę: bard, czarownik, druid, kleryk, mag lub zaklinacz. Otrzymujesz dwie '
               'sztuczki z listy czarów wybranej klasy. Dodatkowo: - poznajesz jeden wybrany czar 1 kręgu z tej '
               'samej listy. Dzięki atutowi możesz go go rzucić raz z jego najniższego kręgu. Musisz ukończyć długi '
               'odpoczynek by ponownie rzucić to zaklęcie - twoja cecha bazowa zależy od listy z której wybrałeś '
               'zaklęcie: charyzma dla barda …',
    "DND-F39": 'ZABIJAKA - twoja siła lub wytrzymałość rośnie o 1. Maksymalnie do 20 - masz biegłość w broni '
               'improwizowanej - twoje ataki bez broni zadają k4 obrażenia - przy trafieniu przeciwnika w swojej '
               'turze atakiem bez broni lub bronią improwizowaną możesz wykorzystać akcję dodatkową by spróbować '
               'pochwycić cel',
    "DND-F40": 'ZABÓJCA MAGÓW - kiedy przeciwnik w promieniu 1,5 m od ciebie rzuca czar możesz w ramach swojej '
               'reakcji zaatakować go bronią wręcz - gdy zadasz obrażenia przeciwnikowi koncentrującemu się na '
               'czarze ma on utrudnienie w rzucie obronnym by utrzymać koncentrację - masz ułatwienie w rzutach '
               'obronnych przeciw czarom rzuconym przez przeciwnika znajdującego się do 1,5 m od ciebie',
    "DND-F41": 'ZAPAŚNIK - masz ułatwienie w testach ataku przeciwko pochwyconemu przez siebie przeciwnikowi - '
               'możesz wykorzystać swoją akcję by spróbować przygwoździć pochwyconego przez siebie przeciwnika. Aby '
               'to zrobić wykonaj kolejny test pochwycenia. Jeśli się uda wraz z przeciwnikiem stajecie się '
               'unieruchomieni aż do zakończenia pochwycenia',
    "DND-F42": 'ZNAWCA RYTUAŁÓW Wymagania: inteligencja lub mądrość 13 lub wyższa Gdy wybierasz ten atut otrzymujesz '
               'księgę rytuałów. zawierającą dwa wybrane czary z 1 kręgu. Wybierz klasę: bard, czarownik, druid, '
               'kleryk, mag lub zaklinacz. Twoje czary muszą pochodzić z listy wybranej klasy i muszą mieć atrybut '
               'rytuał. Wybrana klasa określa też cechę bazową twoich czarów - charyzma dla barda, czarownika i '
               'zaklinacza; Mądrość dla …',
}
